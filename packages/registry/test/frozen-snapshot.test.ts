import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../src/index.js";
import { freezeOwnedJson, frozenSnapshot } from "../src/frozen-snapshot.js";
import { deepFreeze } from "../src/freeze.js";
import { toolDefinition } from "./tool-definition.js";

describe("frozen snapshots of plain data", () => {
  it("shares a schema that is already deep-frozen plain data instead of copying it", () => {
    const inputSchema = deepFreeze({
      type: "object",
      properties: { q: { type: "string", enum: ["a", "b"] } },
      required: ["q"],
    });
    const entry = new ToolRegistry().register("ns", toolDefinition("t", { inputSchema }));
    expect(entry.inputSchema).toBe(inputSchema);
  });

  it("copies the unfrozen parts and shares the deep-frozen ones", () => {
    const annotations = deepFreeze({ readOnlyHint: true, tags: ["x"] });
    const metadata = { server: "s", annotations, extra: { n: 1 } };
    const snapshot = frozenSnapshot(metadata);
    expect(snapshot).not.toBe(metadata);
    expect(snapshot.annotations).toBe(annotations);
    expect(snapshot.extra).not.toBe(metadata.extra);
    expect(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.extra)).toBe(true);
    metadata.extra.n = 2;
    expect(snapshot).toEqual({ server: "s", annotations: { readOnlyHint: true, tags: ["x"] }, extra: { n: 1 } });
  });

  it("shares its own earlier snapshots whole, even where walking them again would pass the fast path's budget", () => {
    // 6,002 nodes each: one fits the fast path's walk, the two together (12,004) would not, and were copied.
    const makeBig = () => frozenSnapshot({ items: Array.from({ length: 6_000 }, (_, i) => ({ n: i })) });
    const [first, second] = [makeBig(), makeBig()];
    const wrapper = frozenSnapshot({ name: "t", first, second });
    expect(wrapper.first).toBe(first);
    expect(wrapper.second).toBe(second);
    expect(frozenSnapshot(first)).toBe(first);
  });

  it("does not share a structuredClone result again: a frozen Date can still change", () => {
    const first = frozenSnapshot({ at: new Date(0) });
    const second = frozenSnapshot(first);
    expect(second).not.toBe(first);
    first.at.setTime(1);
    expect(second.at.getTime()).toBe(0);
  });

  it("copies a frozen object whose nested parts can still change", () => {
    const nested = { type: "string" };
    const schema = Object.freeze({ type: "object", properties: Object.freeze({ q: nested }) });
    const snapshot = frozenSnapshot(schema);
    expect(snapshot).not.toBe(schema);
    nested.type = "number";
    expect(snapshot.properties.q.type).toBe("string");
    expect(Object.isFrozen(snapshot.properties.q)).toBe(true);
  });

  it("copies a frozen object with a getter, so the value cannot change later", () => {
    let current = 1;
    const withGetter = Object.freeze(Object.defineProperty({}, "n", { get: () => current, enumerable: true })) as {
      readonly n: number;
    };
    const snapshot = frozenSnapshot(withGetter);
    current = 2;
    expect(snapshot.n).toBe(1);
    expect(Object.getOwnPropertyDescriptor(snapshot, "n")).toHaveProperty("value", 1);
  });

  it("copies what is not plain data as structuredClone does", () => {
    const at = new Date(5);
    const list = [1, 2, 3];
    Reflect.deleteProperty(list, 1);
    const frozenWithDate = deepFreeze({ at, list });
    const snapshot = frozenSnapshot(frozenWithDate);
    expect(snapshot.at).not.toBe(at);
    expect(snapshot.at).toEqual(new Date(5));
    expect(1 in snapshot.list).toBe(false);

    const shared = { n: 1 };
    const withAlias = frozenSnapshot({ left: shared, right: shared, deep: nestedDeeperThan(100) });
    expect(withAlias.left).toBe(withAlias.right);
  });

  it("keeps a __proto__ key an own property of the copy", () => {
    const metadata = JSON.parse('{"__proto__": {"polluted": true}, "frozen": {}}') as Record<string, unknown>;
    metadata.frozen = Object.freeze({});
    const snapshot = frozenSnapshot(metadata);
    expect(Object.getOwnPropertyNames(snapshot)).toEqual(["__proto__", "frozen"]);
    expect(Object.getPrototypeOf(snapshot)).toBe(Object.prototype);
  });

  it("refuses functions and symbols through structuredClone's error", () => {
    expect(() => frozenSnapshot(deepFreeze({ callback: () => 1 }))).toThrow();
    expect(() => frozenSnapshot({ tag: Symbol("s") })).toThrow();
  });
});

function nestedDeeperThan(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) value = { value };
  return value;
}

describe("frozenSnapshot of unfrozen data (what a tool source hands over)", () => {
  it("copies plain data deeply and freezes the copy, leaving the original alone", () => {
    const original = { type: "object", properties: { q: { type: "string", enum: ["a", "b"] } }, required: ["q"] };
    const copy = frozenSnapshot(original);
    expect(copy).toEqual(original);
    expect(copy.properties.q).not.toBe(original.properties.q);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.properties.q.enum)).toBe(true);
    expect(Object.isFrozen(original) || Object.isFrozen(original.properties.q)).toBe(false);
  });

  it("keeps a __proto__ key an own property", () => {
    const copy = frozenSnapshot(JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>);
    expect(Object.getOwnPropertyNames(copy)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("falls back to structuredClone for what is not plain JSON", () => {
    const cyclic: Record<string, unknown> = { at: new Date(5) };
    cyclic.self = cyclic;
    const copy = frozenSnapshot(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy.at).toEqual(new Date(5));
    expect(copy.at).not.toBe(cyclic.at);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(() => frozenSnapshot({ callback: () => 1 })).toThrow();
  });
});

describe("freezeOwnedJson (what JSON.parse just returned, owned by the caller)", () => {
  it("freezes the data where it is, and a later snapshot shares it without copying", () => {
    const parsed = JSON.parse(
      '{"type":"object","properties":{"q":{"type":"string","enum":["a","b"]},"__proto__":{"x":1}},"required":["q"]}',
    ) as { properties: { q: { enum: string[] } } };
    const enumList = parsed.properties.q.enum;
    expect(freezeOwnedJson(parsed)).toBe(parsed);
    expect(Object.isFrozen(parsed) && Object.isFrozen(parsed.properties.q) && Object.isFrozen(enumList)).toBe(true);
    expect(Object.getOwnPropertyNames(parsed.properties)).toEqual(["q", "__proto__"]);
    expect(frozenSnapshot(parsed)).toBe(parsed);
    expect(() => {
      "use strict";
      enumList.push("c");
    }).toThrow(TypeError);
  });

  it("copies instead what is not plain JSON data, as frozenSnapshot does", () => {
    const cyclic: Record<string, unknown> = { at: new Date(5), plain: { n: 1 } };
    cyclic.self = cyclic;
    const kept = freezeOwnedJson(cyclic);
    expect(kept).not.toBe(cyclic);
    expect(kept.self).toBe(kept);
    expect(kept.at).toEqual(new Date(5));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(() => freezeOwnedJson({ callback: () => 1 })).toThrow();
  });
});
