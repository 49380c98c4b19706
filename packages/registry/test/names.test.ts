import { describe, expect, it } from "vitest";
import { RegistryError, ToolRegistry, validateToolName, type NameKind } from "../src/index.js";
import { toolDefinition } from "./tool-definition.js";

const invalid: [label: string, kind: NameKind, name: string, reason: RegExp][] = [
  ["empty tool", "tool", "", /must not be empty/],
  ["empty namespace", "namespace", "", /must not be empty/],
  ["slash in a tool name", "tool", "a/b", /must not contain "\/"/],
  ["slash in a namespace", "namespace", "gh/x", /must not contain "\/"/],
  ["dot-dot", "tool", "..", /must not be "\." or contain "\.\."/],
  ["dot-dot inside", "namespace", "a..b", /contain "\.\."/],
  ["lone dot", "tool", ".", /must not be "\."/],
  ["NUL", "tool", "a\u0000b", /control characters \(found U\+0000\)/],
  ["newline", "namespace", "ns\n", /control characters \(found U\+000A\)/],
  ["DEL", "tool", "x\u007f", /control characters \(found U\+007F\)/],
  ["C1 control", "tool", "x\u0085", /control characters \(found U\+0085\)/],
  ["bidi override", "tool", "safe\u202Eexe", /invisible formatting.*U\+202E/],
  ["zero-width space", "namespace", "git\u200Bhub", /invisible formatting.*U\+200B/],
  ["lone surrogate", "tool", "x\uD800", /unpaired surrogates \(found U\+D800\)/],
  ["space", "tool", "list repos", /whitespace \(found U\+0020\)/],
  ["trailing space", "namespace", "github ", /whitespace/],
  ["no-break space", "tool", "list\u00A0repos", /whitespace \(found U\+00A0\)/],
  ["ideographic space", "tool", "x\u3000", /whitespace \(found U\+3000\)/],
  ["decomposed é (not NFC)", "tool", "cafe\u0301", /NFC/],
  ["129 characters", "tool", "a".repeat(129), /at most 128 characters \(this one has 129\)/],
  ["129 astral characters", "namespace", "😀".repeat(129), /at most 128 characters \(this one has 129\)/],
];

const valid: [NameKind, string][] = [
  ["tool", "list_repos"],
  ["tool", "get-user.details"],
  ["tool", "a".repeat(128)],
  ["namespace", "😀".repeat(128)],
  ["tool", "café"],
  ["tool", "поиск"],
  ["tool", "検索"],
  ["tool", "v1.2"],
  ["tool", "__proto__"],
  ["namespace", "constructor"],
  ["tool", "a.b.c"],
];

describe("validateToolName", () => {
  it.each(invalid)("rejects %s", (_label, kind, name, reason) => {
    const message = validateToolName(kind, name);
    expect(message).toMatch(reason);
    expect(message).toContain(`a ${kind} name`);
  });

  it.each(valid)("accepts the %s name %j", (kind, name) => {
    expect(validateToolName(kind, name)).toBeUndefined();
  });

  it("rejects a value that is not a string (JavaScript callers)", () => {
    expect(validateToolName("tool", 42 as unknown as string)).toBe("a tool name must be a string");
  });
});

describe("names in the registry", () => {
  it.each(invalid.filter(([, kind]) => kind === "tool"))(
    "refuses to register a tool named with %s",
    (_label, _kind, name, reason) => {
      const registry = new ToolRegistry();
      let thrown: unknown;
      try {
        registry.register("ns", toolDefinition(name));
      } catch (error) {
        thrown = error;
      }
      expect(RegistryError.isInstance(thrown)).toBe(true);
      const error = thrown as RegistryError;
      expect(error.code).toBe("INVALID_NAME");
      expect(error.message).toMatch(reason);
      expect(error.message).toContain("Invalid tool name");
      expect(registry.size).toBe(0);
    },
  );

  it.each(invalid.filter(([, kind]) => kind === "namespace"))("refuses a namespace with %s", (_label, _kind, name) => {
    const registry = new ToolRegistry();
    expect(() => registry.register(name, toolDefinition("ok"))).toThrow(
      expect.objectContaining({ code: "INVALID_NAME" }) as Error,
    );
    expect(() => registry.replaceNamespace(name, [toolDefinition("ok")])).toThrow(/Invalid namespace name/);
    expect(registry.size).toBe(0);
  });

  it("escapes invisible characters and cuts long names in messages", () => {
    const registry = new ToolRegistry();
    expect(() => registry.register("ns", toolDefinition('evil\u202E\u0000"x'))).toThrow(
      'Invalid tool name "evil\\u{202E}\\u{0000}\\"x" in namespace "ns"',
    );
    const long = "b".repeat(5000);
    let message = "";
    try {
      registry.register("ns", toolDefinition(long));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`"${"b".repeat(64)}…" (5000 characters)`);
    expect(message.length).toBeLessThan(400);
  });

  it("keeps __proto__, constructor and friends as ordinary names without polluting anything", () => {
    const registry = new ToolRegistry();
    expect(registry.has("constructor")).toBe(false);
    expect(registry.get("toString")).toBeUndefined();
    expect(registry.get("__proto__")).toBeUndefined();

    registry.register("__proto__", toolDefinition("__proto__"));
    registry.register("constructor", toolDefinition("hasOwnProperty"));
    registry.replaceNamespace("prototype", [toolDefinition("__proto__"), toolDefinition("constructor")]);
    const metadata = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    registry.register(
      "ns",
      toolDefinition("meta", {
        sourceMetadata: metadata,
        inputSchema: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>,
      }),
    );

    expect(registry.size).toBe(5);
    expect(registry.get("__proto__/__proto__")?.localName).toBe("__proto__");
    expect(registry.list({ namespace: "__proto__" }).map((tool) => tool.name)).toEqual(["__proto__/__proto__"]);
    expect(registry.list({ namespace: "prototype" }).map((tool) => tool.name)).toEqual([
      "prototype/__proto__",
      "prototype/constructor",
    ]);
    expect(registry.list({ namespace: "toString" })).toEqual([]);
    expect(Object.getOwnPropertyNames(registry.get("ns/meta")?.sourceMetadata)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(registry.unregister("constructor/hasOwnProperty")).toBe(true);
    expect(registry.has("constructor/hasOwnProperty")).toBe(false);
  });
});
