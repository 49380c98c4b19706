import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { expect, it } from "vitest";
import { createToolSearch } from "../src/index.js";

it("runs the README example as written", async () => {
  const registry = new ToolRegistry();
  registry.replaceNamespace("weather", [
    {
      name: "get_forecast",
      description: "Five-day forecast for a city.",
      inputSchema: { type: "object", properties: { city: { type: "string" } } },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: (args) => ({ success: true, data: `Sunny in ${String(args.city)}` }),
    },
  ]);
  const search = createToolSearch(registry, { pinned: [] });
  const found = await search.source.call("tools/search", { query: "forecast for Paris" });
  await search.source.call("tools/load", { names: ["weather__get_forecast"] });
  expect(found.data).toMatchObject({
    tools: [{ name: "weather__get_forecast", description: "Five-day forecast for a city." }],
  });
  expect(search.source.list().map((tool) => tool.name)).toEqual([
    "tools/search",
    "tools/load",
    "tools/call",
    "weather/get_forecast",
  ]);
  expect(await search.source.call("weather/get_forecast", { city: "Paris" })).toMatchObject({ data: "Sunny in Paris" });
});
