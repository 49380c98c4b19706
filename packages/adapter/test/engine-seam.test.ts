import { createInMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import type { MCPEngine } from "@mcp-tool-adapter/core";
import { describe, expect, it } from "vitest";
import { MCPConfigError, MCPToolAdapter, findConfigIssues } from "../src/index.js";

function refusal(create: () => unknown): MCPConfigError {
  try {
    create();
  } catch (error) {
    expect(MCPConfigError.isInstance(error)).toBe(true);
    return error as MCPConfigError;
  }
  throw new Error("expected MCPConfigError");
}

describe("protocol setting", () => {
  it("accepts auto, 2025 and 2026-07-28 and names the field for anything else", () => {
    for (const protocol of ["auto", "2025", "2026-07-28"]) {
      expect(findConfigIssues({ name: "a", transport: "stdio", command: "node", protocol })).toEqual([]);
    }
    expect(findConfigIssues({ name: "a", transport: "stdio", command: "node", protocol: "2024" })).toEqual([
      { path: "/protocol", message: 'protocol must be "auto", "2025" or "2026-07-28", got "2024"' },
    ]);
  });

  it("the default engine refuses 2026-07-28 when the adapter is made, saying which package to install", () => {
    const error = refusal(
      () =>
        new MCPToolAdapter({
          name: "modern",
          transport: "streamable-http",
          url: "http://127.0.0.1:1/mcp",
          protocol: "2026-07-28",
        }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain('MCP server "modern" asks for protocol "2026-07-28"');
    expect(error.message).toContain("install @mcp-tool-adapter/engine-2026");
    expect(error.issues).toEqual([{ path: "/protocol", message: 'protocol "2026-07-28" needs another engine' }]);
  });

  it('the built-in engines are picked by name: the JSON-RPC one by default, SDK 1.x\'s Client with "sdk-v1"', () => {
    const config = { name: "modern", transport: "stdio" as const, command: "node", protocol: "2026-07-28" as const };
    expect(refusal(() => new MCPToolAdapter(config)).message).toContain(
      "the engine @mcp-tool-adapter/adapter JSON-RPC",
    );
    expect(refusal(() => new MCPToolAdapter(config, { engine: "json-rpc" })).message).toContain(
      "the engine @mcp-tool-adapter/adapter JSON-RPC",
    );
    const sdk = refusal(() => new MCPToolAdapter(config, { engine: "sdk-v1" }));
    expect(sdk.message).toContain("the engine @modelcontextprotocol/sdk 1.x");
    expect(sdk.message).toContain("install @mcp-tool-adapter/engine-2026");
  });

  it("an injected engine is asked which settings it honours", () => {
    const only2026: MCPEngine = {
      name: "a 2026-only engine",
      protocols: ["2026-07-28"],
      connect: () => Promise.reject(new Error("not used")),
    };
    const error = refusal(
      () =>
        new MCPToolAdapter(
          { name: "old", transport: "stdio", command: "node", protocol: "2025" },
          { engine: only2026 },
        ),
    );
    expect(error.message).toContain(
      'the engine a 2026-only engine does not speak: use an engine that speaks it, or set "protocol" to one of "2026-07-28"',
    );
  });
});

describe("the default engine", () => {
  it("speaks the 2025 era and reports the negotiated revision while connected", async () => {
    const server = createInMemoryTestServer({ tools: [{ name: "echo" }] });
    const adapter = new MCPToolAdapter(
      { name: "mem", transport: "stdio", command: "unused", protocol: "2025" },
      { transport: () => server.connect() },
    );
    expect(adapter.protocolEra).toBeUndefined();
    await adapter.connect();
    expect(adapter.protocolEra).toBe("2025");
    expect(adapter.protocolVersion).toMatch(/^2025-/u);
    await adapter.disconnect();
    expect(adapter.protocolVersion).toBeUndefined();
  });
});
