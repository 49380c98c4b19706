import { MCPToolAdapter, type ClientRequestContext } from "@mcp-tool-adapter/adapter";
import { startEverythingHttp, type EverythingHttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// The official 2025-era server-everything over streamable HTTP: auto must find 2025 and change nothing.
let server: EverythingHttpServer;

beforeAll(async () => {
  server = await startEverythingHttp({ mode: "streamableHttp" });
});
afterAll(async () => {
  await server.stop();
});

describe("engine-2026 auto against server-everything (2025 era)", () => {
  it("falls back to the 2025 handshake, calls a tool, and remembers the verdict", async () => {
    const engine = createEngine2026();
    const config = { name: "everything", transport: "streamable-http", url: server.url } as const;
    const adapter = new MCPToolAdapter(config, { engine });
    try {
      await adapter.connect();
      expect(adapter.protocolEra).toBe("2025");
      expect(adapter.protocolVersion).toMatch(/^2025-/u);
      expect(engine.knownEra(config)).toBe("2025");
      expect((await adapter.discoverTools()).map((tool) => tool.name)).toContain("echo");
      expect(await adapter.invoke("echo", { message: "old server" })).toMatchObject({
        success: true,
        data: { content: [{ type: "text", text: "Echo: old server" }] },
      });
      // The remembered verdict: a plain initialize, and still the same era.
      await adapter.reconnect();
      expect(adapter.protocolEra).toBe("2025");
    } finally {
      await adapter.disconnect();
    }
  });
});

describe.each([
  { setting: "auto (the probe finds 2025)", protocol: undefined },
  { setting: '"2025"', protocol: "2025" as const },
])("engine-2026 on a 2025 streamable HTTP connection, protocol $setting", ({ protocol }) => {
  it("tells the handlers which tool call a server's elicitation or sampling belongs to (the call's response stream carried it)", async () => {
    const contexts: ClientRequestContext[] = [];
    const adapter = new MCPToolAdapter(
      {
        name: "everything",
        transport: "streamable-http",
        url: server.url,
        ...(protocol === undefined ? {} : { protocol }),
      },
      {
        engine: createEngine2026(),
        onElicitation: (_request, context) => {
          contexts.push(context);
          return { action: "accept", content: { name: "Ada", check: true, integer: 7 } };
        },
        onSampling: (_request, context) => {
          contexts.push(context);
          return { role: "assistant", content: { type: "text", text: "sampled" }, model: "host-model" };
        },
      },
    );
    const caller = { user: "ada" };
    try {
      await adapter.connect();
      expect(adapter.protocolEra).toBe("2025");
      expect(await adapter.invoke("trigger-elicitation-request", {}, { caller })).toMatchObject({ success: true });
      expect(
        await adapter.invoke("trigger-sampling-request", { prompt: "hi", maxTokens: 5 }, { caller }),
      ).toMatchObject({ success: true });
      expect(contexts.map((context) => context.relatedCall)).toEqual([
        { tool: "trigger-elicitation-request", caller },
        { tool: "trigger-sampling-request", caller },
      ]);
      // A reconnect (a fresh session) links as well.
      await adapter.reconnect();
      expect(await adapter.invoke("trigger-elicitation-request", {}, { caller })).toMatchObject({ success: true });
      expect(contexts.at(-1)?.relatedCall).toEqual({ tool: "trigger-elicitation-request", caller });
    } finally {
      await adapter.disconnect();
    }
  });
});
