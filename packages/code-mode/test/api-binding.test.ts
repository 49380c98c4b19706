import { ToolRegistry, type ToolCallResult } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { bindApi, createCodeMode } from "../src/index.js";

/** One tool "whoami" in each namespace, answering with its namespace. */
function registryOf(namespaces: readonly string[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const namespace of namespaces) {
    registry.register(namespace, {
      name: "whoami",
      description: `Says ${namespace}`,
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "test",
      sourceMetadata: {},
      checkpointable: false,
      handler: (): ToolCallResult => ({ success: true, data: namespace }),
    });
  }
  return registry;
}

const groupsOf = (namespaces: readonly string[]): string[] =>
  Object.keys(bindApi(registryOf(namespaces).list()).table).sort();

describe("group names", () => {
  it("gives a server named like a global the sandbox needs a trailing _", () => {
    expect(groupsOf(["console", "JSON", "weather"])).toEqual(["JSON_", "console_", "weather"]);
  });

  it("keeps that name apart from a server already named with the _ (model-tools' collision hash)", () => {
    const groups = groupsOf(["console", "console_", "JSON", "JSON_", "weather"]);
    expect(new Set(groups).size).toBe(5);
    expect(groups).toContain("weather");
    for (const taken of ["console", "JSON", "console_", "JSON_"]) expect(groups).not.toContain(taken);
    for (const group of groups.filter((name) => name !== "weather"))
      expect(group).toMatch(/^(console|JSON)_+[a-z0-9]{7}$/);
    // The same names whatever order the servers come in.
    expect(groupsOf(["weather", "JSON_", "console_", "JSON", "console"])).toEqual(groups);
  });

  it("reaches each of the colliding servers from a program", async () => {
    const registry = registryOf(["console", "console_"]);
    const codeMode = await createCodeMode(registry);
    try {
      const [first, second] = Object.keys(bindApi(registry.list()).table).sort();
      const result = await codeMode.run(
        `return [await (globalThis as any)["${first}"].whoami(), await (globalThis as any)["${second}"].whoami()].sort();`,
      );
      expect(result).toMatchObject({ ok: true, value: ["console", "console_"] });
      expect((await codeMode.declarations()).text).toContain(`declare const ${first}`);
    } finally {
      codeMode.close();
    }
  });
});
