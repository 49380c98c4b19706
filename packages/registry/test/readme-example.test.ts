import { expect, it } from "vitest";
import { ToolRegistry, type RegistryChange } from "../src/index.js";

it("runs the README example as written", async () => {
  const registry = new ToolRegistry();
  const changes: RegistryChange[] = [];
  registry.subscribe((change) => changes.push(change));
  registry.replaceNamespace("math", [
    {
      name: "add",
      description: "Adds two numbers",
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: ({ a, b }) => ({ success: true, data: Number(a) + Number(b) }),
    },
  ]);
  expect(await registry.call("math/add", { a: 1, b: 2 })).toMatchObject({ success: true, data: 3 });
  expect(await registry.call("math/nope")).toMatchObject({ success: false, errorKind: "not_found" });
  expect(changes).toEqual([{ namespace: "math", added: ["math/add"], removed: [], changed: [] }]);
});
