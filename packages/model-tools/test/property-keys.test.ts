import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { createSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertInputSchema, createModelToolSet, handleToolCall } from "../src/index.js";

/** Anthropic's rule for property names in input_schema. */
const ACCEPTED_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
const LONG_KEY = `k${"x".repeat(70)}`;

/** Keys Anthropic or Gemini refuse, next to accepted ones they could meet once sanitised. */
const hostile = {
  type: "object",
  properties: {
    "first name": { type: "string" },
    first_name: { type: "string" },
    数据: { type: "integer" },
    "": { type: "boolean" },
    [LONG_KEY]: { type: "string" },
    "a/b": {
      type: "object",
      properties: { "x y": { type: "string" }, ok: { type: "string" } },
      required: ["x y"],
    },
    list: { type: "array", items: { type: "object", properties: { "é t": { type: "number" } } } },
  },
  required: ["first name", "数据"],
};

function propertyKeys(schema: Record<string, unknown>): string[] {
  return Object.keys(schema.properties as Record<string, unknown>);
}

describe.each(["anthropic", "gemini"] as const)("property keys the %s API refuses", (dialect) => {
  const converted = convertInputSchema(hostile, dialect);
  const properties = converted.schema.properties as Record<string, Record<string, unknown>>;

  it("are renamed to accepted, distinct keys; accepted keys stay; required follows", () => {
    const keys = propertyKeys(converted.schema);
    expect(keys).toHaveLength(7);
    for (const key of keys) expect(key).toMatch(ACCEPTED_KEY);
    expect(keys).toContain("first_name");
    expect(keys).toContain("list");
    expect(keys.filter((key) => key.startsWith("first_name"))).toHaveLength(2);
    const nested = properties[keys.find((key) => key.startsWith("a_b"))!]!;
    for (const key of propertyKeys(nested)) expect(key).toMatch(ACCEPTED_KEY);
    expect(nested.required).toEqual(["x_y"]);
    const required = converted.schema.required as string[];
    expect(required).toHaveLength(2);
    for (const key of required) expect(keys).toContain(key);
    const items = properties.list!.items as Record<string, unknown>;
    expect(propertyKeys(items)).toEqual(["e_t"]);
  });

  it("are listed in the conversion report", () => {
    expect(converted.changes).toContainEqual(
      expect.stringMatching(/^\/: property "first name" renamed to "first_name_[0-9a-z]{7}"/),
    );
    expect(converted.changes).toContainEqual(
      expect.stringMatching(/^\/properties\/a~1b: property "x y" renamed to "x_y"/),
    );
    expect(converted.changes).toContainEqual(
      expect.stringMatching(/^\/properties\/list\/items: property "é t" renamed to "e_t"/),
    );
  });

  it("come back under their real names in the model's arguments, at every depth", () => {
    const keys = propertyKeys(converted.schema);
    const modelKeyOf = (prefix: string): string => keys.find((key) => key.startsWith(prefix) && key !== "first_name")!;
    const args = {
      first_name: "plain",
      [modelKeyOf("first_name")]: "spaced",
      [modelKeyOf("key")]: 7,
      [modelKeyOf("a_b")]: { x_y: "deep", ok: "kept" },
      list: [{ e_t: 1 }, { e_t: 2 }],
    };
    const restored = converted.restoreArguments(args);
    expect(restored).toEqual({
      first_name: "plain",
      "first name": "spaced",
      数据: 7,
      "a/b": { "x y": "deep", ok: "kept" },
      list: [{ "é t": 1 }, { "é t": 2 }],
    });
    expect(createSchemaValidator().compile(hostile).validate(restored).valid).toBe(true);
  });

  it("renames injectively and deterministically for any set of keys, and maps every one back", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(fc.string({ unit: "grapheme", maxLength: 80 }), fc.stringMatching(/^[a _.-]{1,4}$/)), {
          maxLength: 25,
        }),
        (keys) => {
          const schema = {
            type: "object",
            // Each property says its real key, so the test can tell which model key stands for which.
            properties: Object.fromEntries(
              keys.map((key) => [key, { type: "string", description: JSON.stringify(key) }]),
            ),
          };
          const once = convertInputSchema(schema, dialect);
          const again = convertInputSchema(structuredClone(schema), dialect);
          const modelKeys = propertyKeys(once.schema);
          expect(modelKeys).toEqual(propertyKeys(again.schema));
          expect(new Set(modelKeys).size).toBe(keys.length);
          const converted = once.schema.properties as Record<string, { description?: string }>;
          for (const modelKey of modelKeys) {
            expect(modelKey).toMatch(ACCEPTED_KEY);
            // The model's argument under this key comes back under the real key it stands for.
            const realKey = JSON.parse(converted[modelKey]!.description!) as string;
            expect(once.restoreArguments({ [modelKey]: "v" })).toEqual({ [realKey]: "v" });
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("a tool with refused property keys, called through the model's names", () => {
  it("reaches the tool with its real keys (validated against the real schema)", async () => {
    const registry = new ToolRegistry();
    const received: Record<string, unknown>[] = [];
    registry.register("crm", {
      name: "add_contact",
      description: "Adds a contact",
      inputSchema: hostile,
      capabilities: { readOnly: false, writes: true },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: (args) => {
        received.push(args);
        return { success: true, data: "added" };
      },
    });
    const set = createModelToolSet(registry);
    const keys = propertyKeys(set.tools[0]!.schemaFor("anthropic").schema);
    const spaced = keys.find((key) => key.startsWith("first_name_"))!;
    const data = keys.find((key) => key.startsWith("key"))!;
    const block = await handleToolCall(
      set,
      { id: "toolu_1", name: "crm__add_contact", arguments: { [spaced]: "Ada", [data]: 3 } },
      { format: "anthropic" },
    );
    expect(block.is_error).toBeUndefined();
    expect(received).toEqual([{ "first name": "Ada", 数据: 3 }]);
  });
});
