import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createModelToolNames,
  MODEL_TOOL_NAME_PATTERN,
  MODEL_TOOL_WORD_NAME_PATTERN,
  ModelToolsError,
} from "../src/index.js";

/** Registry-like names: "namespace/tool" from any Unicode, plus some without a namespace. */
const registryName = fc.oneof(
  fc
    .tuple(
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 140 }),
    )
    .map(([ns, tool]) => `${ns}/${tool}`),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.constantFrom(
    "memory/read_graph",
    "memory/read.graph",
    "memory/read graph",
    "memory__read/graph",
    "Memory/read_graph",
    "a/b",
    "a__b",
    "a/_b",
  ),
);

describe("createModelToolNames", () => {
  it("keeps clean names readable, joined by the separator", () => {
    const names = createModelToolNames(["memory/read_graph", "fs/read-file", "local"]);
    expect(names.toModelName("memory/read_graph")).toBe("memory__read_graph");
    expect(names.toModelName("fs/read-file")).toBe("fs__read-file");
    expect(names.toModelName("local")).toBe("local");
    expect(names.toRegistryName("memory__read_graph")).toBe("memory/read_graph");
    expect(names.toRegistryName("memory/read_graph")).toBeUndefined();
    expect(names.size).toBe(3);
  });

  it("sanitises other characters readably: accents dropped, runs of others become one underscore, no letters at all a hash", () => {
    const names = createModelToolNames(["café/créer entité", "docs/search.v2", "数据/查询"]);
    expect(names.toModelName("café/créer entité")).toBe("cafe__creer_entite");
    expect(names.toModelName("docs/search.v2")).toBe("docs__search_v2");
    expect(names.toModelName("数据/查询")).toMatch(/^tool_[0-9a-z]{7}$/);
  });

  it("starts every name with a letter or underscore (Gemini's rule)", () => {
    const names = createModelToolNames(["1password/get", "-x/y"]);
    expect(names.toModelName("1password/get")).toBe("_1password__get");
    expect(names.toModelName("-x/y")).toBe("_-x__y");
  });

  it("adds a short hash only to names that would meet, and to names that are too long", () => {
    const long = `ns/${"very_long_tool_name_".repeat(5)}`;
    const names = createModelToolNames(["memory/read graph", "memory/read.graph", "memory/write", long]);
    const a = names.toModelName("memory/read graph");
    const b = names.toModelName("memory/read.graph");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^memory__read_graph_[0-9a-z]{7}$/);
    expect(b).toMatch(/^memory__read_graph_[0-9a-z]{7}$/);
    expect(names.toModelName("memory/write")).toBe("memory__write");
    expect(names.toModelName(long)).toHaveLength(64);
    expect(names.toModelName(long).startsWith("ns__very_long_tool_name_")).toBe(true);
  });

  it("gives a name the same model name whatever else is in the set, unless something collides with it", () => {
    const alone = createModelToolNames(["memory/read graph"]).toModelName("memory/read graph");
    expect(alone).toBe("memory__read_graph");
    const withOthers = createModelToolNames(["x/y", "memory/read graph", "z/w"]).toModelName("memory/read graph");
    expect(withOthers).toBe(alone);
  });

  it("uses the configured separator and length", () => {
    const names = createModelToolNames(["memory/read_graph", `ns/${"x".repeat(40)}`], {
      separator: "-",
      maxLength: 32,
    });
    expect(names.toModelName("memory/read_graph")).toBe("memory-read_graph");
    expect(names.toModelName(`ns/${"x".repeat(40)}`)).toHaveLength(32);
  });

  it("refuses a separator or length the providers would not accept", () => {
    expect(() => createModelToolNames([], { separator: "/" })).toThrow(/separator "\/" is not allowed/);
    expect(() => createModelToolNames([], { separator: "" })).toThrow(ModelToolsError);
    expect(() => createModelToolNames([], { maxLength: 65 })).toThrow(/maxLength 65 is not allowed/);
    try {
      createModelToolNames([], { maxLength: 3 });
    } catch (error) {
      expect(ModelToolsError.isInstance(error) && error.code).toBe("INVALID_OPTIONS");
    }
  });

  it("throws UNKNOWN_TOOL for a registry name outside the set", () => {
    const names = createModelToolNames(["a/b"]);
    expect(() => names.toModelName("a/c")).toThrow(/"a\/c" is not one of the 1 tools/);
    try {
      names.toModelName("a/c");
    } catch (error) {
      expect(ModelToolsError.isInstance(error) && error.code).toBe("UNKNOWN_TOOL");
    }
  });

  it("lists every pair in registry-name order", () => {
    expect([...createModelToolNames(["b/x", "a/y"]).entries()]).toEqual([
      ["a/y", "a__y"],
      ["b/x", "b__x"],
    ]);
  });

  it('charset "word" leaves "-" out, so names that differ only by "-" and "_" stay apart', () => {
    const names = createModelToolNames(["ns/a-b", "ns/a_b", "fs/read-file", "memory/read_graph"], { charset: "word" });
    const models = ["ns/a-b", "ns/a_b", "fs/read-file", "memory/read_graph"].map((name) => names.toModelName(name));
    for (const model of models) expect(model).toMatch(MODEL_TOOL_WORD_NAME_PATTERN);
    expect(new Set(models).size).toBe(4);
    expect(names.toModelName("memory/read_graph")).toBe("memory__read_graph");
    expect(names.toModelName("ns/a-b")).toMatch(/^ns__a_b_[0-9a-z]{7}$/);
    expect(names.toModelName("fs/read-file")).toBe("fs__read_file");
    expect(names.toRegistryName(names.toModelName("ns/a-b"))).toBe("ns/a-b");
  });

  it('refuses a "-" separator under charset "word", and an unknown charset', () => {
    expect(() => createModelToolNames([], { charset: "word", separator: "-" })).toThrow(
      /separator "-" is not allowed.*charset "word"/,
    );
    expect(() => createModelToolNames([], { charset: "ascii" as "word" })).toThrow(/charset "ascii" is not known/);
  });

  describe.each([
    { charset: "standard" as const, pattern: MODEL_TOOL_NAME_PATTERN },
    { charset: "word" as const, pattern: MODEL_TOOL_WORD_NAME_PATTERN },
  ])("properties, charset $charset", ({ charset, pattern }) => {
    it("is injective, every output matches the charset's pattern, and the reverse lookup finds each name", () => {
      fc.assert(
        fc.property(fc.uniqueArray(registryName, { maxLength: 60 }), (input) => {
          const names = createModelToolNames(input, { charset });
          const seen = new Set<string>();
          for (const name of input) {
            const model = names.toModelName(name);
            expect(model).toMatch(pattern);
            expect(model).toMatch(/^[a-zA-Z_]/);
            expect(seen.has(model)).toBe(false);
            seen.add(model);
            expect(names.toRegistryName(model)).toBe(name);
          }
        }),
        { numRuns: 200 },
      );
    });

    it("is injective when many names sanitise to the same text", () => {
      fc.assert(
        fc.property(fc.uniqueArray(fc.stringMatching(/^[a./ _-]{1,6}$/), { minLength: 2, maxLength: 200 }), (input) => {
          const names = createModelToolNames(input, { charset });
          expect(new Set(input.map((name) => names.toModelName(name))).size).toBe(input.length);
        }),
      );
    });

    it("maps the same input the same way, in any order", () => {
      fc.assert(
        fc.property(fc.uniqueArray(registryName, { maxLength: 30 }), fc.integer(), (input, seed) => {
          const shuffled = [...input].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7));
          const first = createModelToolNames(input, { charset });
          const second = createModelToolNames(shuffled, { charset });
          for (const name of input) expect(second.toModelName(name)).toBe(first.toModelName(name));
        }),
      );
    });
  });

  it('charset "word" names survive the OpenAI Agents SDK\'s rewrite ("-" and others to "_") unchanged and distinct', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-b]{1,2}[-_/.]{1,2}[a-b]{1,2}$/), { minLength: 2, maxLength: 40 }),
        (input) => {
          const names = createModelToolNames(input, { charset: "word" });
          const rewritten = input.map((name) => names.toModelName(name).replace(/[^a-zA-Z0-9_]/g, "_"));
          expect(rewritten).toEqual(input.map((name) => names.toModelName(name)));
          expect(new Set(rewritten).size).toBe(input.length);
        },
      ),
    );
  });
});
