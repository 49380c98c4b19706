import { readFileSync } from "node:fs";
import { Errors } from "typebox/schema";
import { describe, expect, it } from "vitest";
import { GENERATED_SCHEMA_PATH, renderConfigFileSchemaModule } from "../scripts/config-file-schema-module.mjs";
import { CONFIG_FILE_ENTRY_OPTIONS_JSON_SCHEMA } from "../src/config-file/entry-options-schema.generated.js";
import { findSchemaIssues, SCHEMA_NODE_KEYWORDS, type SchemaNode } from "../src/config-file/schema-issues.js";

/** Every node of a schema, the root first. */
function allNodes(node: SchemaNode): SchemaNode[] {
  const children = [
    ...Object.values(node.properties ?? {}),
    ...Object.values(node.patternProperties ?? {}),
    ...(node.items === undefined ? [] : [node.items]),
    ...(node.anyOf ?? []),
  ];
  return [node, ...children.flatMap(allNodes)];
}

const nodes = allNodes(CONFIG_FILE_ENTRY_OPTIONS_JSON_SCHEMA);
const isLeaf = (node: SchemaNode) =>
  node.properties === undefined &&
  node.patternProperties === undefined &&
  node.items === undefined &&
  node.anyOf === undefined;

const PRIMITIVES: unknown[] = [null, true, false, 0, 1, -1, 0.5, 2, 1.5, "", "x", "😀", "oauth", "stdio", "debug"];

describe("the config file's generated JSON schema", () => {
  it("is what `pnpm generate:config-schema` renders from the TypeBox schemas", async () => {
    // When this fails: run `pnpm generate:config-schema` in packages/mcp-tool-adapter and commit the file.
    expect(readFileSync(GENERATED_SCHEMA_PATH, "utf8")).toBe(await renderConfigFileSchemaModule());
  });

  it("uses only the keywords the config-file check reads", () => {
    const used = new Set(nodes.flatMap((node) => Object.keys(node)));
    expect([...used].filter((keyword) => !SCHEMA_NODE_KEYWORDS.includes(keyword as keyof SchemaNode))).toEqual([]);
    // The walk is exercised on every kind of node it has to handle.
    expect(used).toEqual(new Set(SCHEMA_NODE_KEYWORDS));
  });

  it("words each leaf's problems as TypeBox does", () => {
    let compared = 0;
    for (const node of nodes.filter((candidate) => candidate.anyOf === undefined)) {
      const values = isLeaf(node) ? [...PRIMITIVES, [], {}] : PRIMITIVES;
      for (const value of values) {
        const ours = findSchemaIssues(node, value).map(({ path, keyword, message }) => ({ path, keyword, message }));
        const typebox = Errors(node as never, value)[1].map((error) => ({
          path: error.instancePath,
          keyword: error.keyword,
          message: error.message,
        }));
        expect({ node, value, issues: ours }).toEqual({ node, value, issues: typebox });
        if (ours.length > 0) compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
