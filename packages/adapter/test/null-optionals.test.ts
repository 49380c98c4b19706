import type { TestTool } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { BUILT_IN_ENGINES, connectedHarness } from "./helpers.js";

/** A tool that records the arguments the server received. */
function searchTool(received: Record<string, unknown>[]): TestTool {
  return {
    name: "search",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" }, verbose: { type: "boolean" }, note: { type: ["string", "null"] } },
      required: ["query"],
    },
    handler: (args) => {
      received.push(args);
      return { content: [{ type: "text", text: "ok" }] };
    },
  };
}

describe("a null for an optional argument", () => {
  it.each(BUILT_IN_ENGINES)(
    "is left out before validation, and the server gets the arguments without it (engine $engine)",
    async ({ engine }) => {
      const received: Record<string, unknown>[] = [];
      const { adapter } = await connectedHarness(
        { tools: [searchTool(received)] },
        engine === undefined ? {} : { engine },
      );
      try {
        const result = await adapter.invoke("search", { query: "mcp", verbose: null, note: null });
        expect(result).toMatchObject({ success: true });
        // `note` accepts null, so its null is the model's value and is sent as is.
        expect(received).toEqual([{ query: "mcp", note: null }]);
      } finally {
        await adapter.disconnect();
      }
    },
  );

  it("for a required argument still fails validation, and nothing is sent", async () => {
    const received: Record<string, unknown>[] = [];
    const { adapter, server } = await connectedHarness({ tools: [searchTool(received)] });
    try {
      const result = await adapter.invoke("search", { query: null });
      expect(result).toMatchObject({ success: false, errorKind: "validation" });
      expect(result.error).toContain("query");
      expect(server.callCount).toBe(0);
    } finally {
      await adapter.disconnect();
    }
  });
});
