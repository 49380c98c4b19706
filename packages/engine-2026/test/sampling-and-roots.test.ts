import { MCPToolAdapter, type MCPToolAdapterOptions } from "@mcp-tool-adapter/adapter";
import { startV2HttpServer, v2StdioServerConfig, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// A modern-only SDK v2 server whose `sample` and `roots` tools answer the first call with an
// input_required result embedding sampling/createMessage or roots/list: in this process over
// streamable HTTP (one for the file), and as a child process over stdio (one per adapter).
let httpServer: V2HttpServer;

beforeAll(async () => {
  httpServer = await startV2HttpServer({ modernOnly: true });
});
afterAll(async () => {
  await httpServer.close();
});

const TRANSPORTS = {
  "streamable HTTP": () => ({ transport: "streamable-http" as const, url: httpServer.url }),
  stdio: () => ({ transport: "stdio" as const, ...v2StdioServerConfig({ modernOnly: true }) }),
};

/** A server process starting on CI's loaded cores can take long (24 s seen at load 29): a bound, not an expectation. */
const HANG_BOUND_MS = 60_000;
const NOT_DECLARED = "the request's client capabilities do not declare the required capability";

describe.each(Object.entries(TRANSPORTS))("sampling and roots on 2026-07-28 over %s", (_name, serverConfig) => {
  // One adapter with the handlers and one without, for every test of this transport.
  const sampled: unknown[] = [];
  let modelFails = false;
  let withHandlers: MCPToolAdapter;
  let withoutHandlers: MCPToolAdapter;

  function adapter(options: MCPToolAdapterOptions): MCPToolAdapter {
    return new MCPToolAdapter(
      { name: "modern", ...serverConfig(), protocol: "2026-07-28" },
      { engine: createEngine2026(), defaultTimeoutMs: 10_000, connectTimeoutMs: HANG_BOUND_MS, ...options },
    );
  }

  beforeAll(async () => {
    withHandlers = adapter({
      onSampling: (request, context) => {
        sampled.push({ request, serverName: context.serverName });
        if (modelFails) throw new Error("the model is down");
        return { role: "assistant", content: { type: "text", text: "hi there" }, model: "host-model" };
      },
      roots: [{ uri: "file:///work/a", name: "a" }],
    });
    withoutHandlers = adapter({});
    // One after the other: two server processes starting at once on two loaded cores took over 30 s.
    await withHandlers.connect();
    await withoutHandlers.connect();
  }, 3 * HANG_BOUND_MS);
  afterAll(async () => {
    await Promise.all([withHandlers.disconnect(), withoutHandlers.disconnect()]);
  }, HANG_BOUND_MS);

  it("asks the host's sampling handler and retries the call with its answer", async () => {
    modelFails = false;
    sampled.length = 0;
    expect(await withHandlers.invoke("sample")).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "model said: hi there" }] },
    });
    expect(sampled).toEqual([
      {
        request: expect.objectContaining({
          messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
          maxTokens: 20,
        }) as unknown,
        serverName: "modern",
      },
    ]);
  });

  it("fails the call with the sampling handler's failure, classified as on the default engine", async () => {
    modelFails = true;
    const result = await withHandlers.invoke("sample");
    modelFails = false;
    expect(result).toMatchObject({
      success: false,
      errorKind: "server_error",
      error:
        'server error: tool "sample" on MCP server "modern" failed: The client\'s sampling/createMessage handler failed: the model is down',
    });
  });

  it("answers roots/list with the configured roots, and with the new ones after setRoots", async () => {
    expect(await withHandlers.invoke("roots")).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "roots: file:///work/a" }] },
    });
    await withHandlers.setRoots([{ uri: "file:///work/b" }, { uri: "file:///work/c" }]);
    expect(await withHandlers.invoke("roots")).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "roots: file:///work/b, file:///work/c" }] },
    });
  });

  it("without a sampling handler or roots the calls fail saying the client cannot answer", async () => {
    for (const tool of ["sample", "roots"]) {
      const result = await withoutHandlers.invoke(tool);
      expect(result, tool).toMatchObject({ success: false, errorKind: "server_error" });
      // The server reads the client's capabilities from the request and does not ask.
      expect(result.error, tool).toContain(NOT_DECLARED);
    }
  });
});
