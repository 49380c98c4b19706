import { describe, expect, it } from "vitest";
import { frozenCopy } from "../src/frozen-copy.js";

describe("frozenCopy", () => {
  it("copies plain data deeply and freezes the copy, leaving the original alone", () => {
    const original = { type: "object", properties: { q: { type: "string", enum: ["a", "b"] } }, required: ["q"] };
    const copy = frozenCopy(original);
    expect(copy).toEqual(original);
    expect(copy.properties.q).not.toBe(original.properties.q);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.properties.q.enum)).toBe(true);
    expect(Object.isFrozen(original) || Object.isFrozen(original.properties.q)).toBe(false);
  });

  it("keeps a __proto__ key an own property", () => {
    const copy = frozenCopy(JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>);
    expect(Object.getOwnPropertyNames(copy)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("falls back to structuredClone for what is not plain JSON", () => {
    const cyclic: Record<string, unknown> = { at: new Date(5) };
    cyclic.self = cyclic;
    const copy = frozenCopy(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy.at).toEqual(new Date(5));
    expect(copy.at).not.toBe(cyclic.at);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(() => frozenCopy({ callback: () => 1 })).toThrow();
  });
});
