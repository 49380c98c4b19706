import { MCPToolAdapter, type ElicitationHandler } from "@mcp-tool-adapter/adapter";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// One modern-only SDK v2 server for the file, in this process: its `ask` tool answers the first
// call with an input_required result that embeds an elicitation.
let server: V2HttpServer;
const adapters: MCPToolAdapter[] = [];

beforeAll(async () => {
  server = await startV2HttpServer({ modernOnly: true });
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});
afterAll(async () => {
  await server.close();
});

async function connected(onElicitation?: ElicitationHandler, clientRequestTimeoutMs?: number): Promise<MCPToolAdapter> {
  const adapter = new MCPToolAdapter(
    { name: "modern", transport: "streamable-http", url: server.url, protocol: "2026-07-28" },
    {
      engine: createEngine2026(),
      defaultTimeoutMs: 10_000,
      ...(onElicitation === undefined ? {} : { onElicitation }),
      ...(clientRequestTimeoutMs === undefined ? {} : { clientRequestTimeoutMs }),
    },
  );
  adapters.push(adapter);
  await adapter.connect();
  return adapter;
}

describe("input_required on 2026-07-28, answered by the adapter's handlers", () => {
  it("asks the host's elicitation handler and retries the call with its checked answer", async () => {
    const asked: unknown[] = [];
    const adapter = await connected((request, context) => {
      asked.push({ request, serverName: context.serverName });
      return { action: "accept", content: { name: "Ada" } };
    });
    const result = await adapter.invoke("ask");
    expect(result).toMatchObject({ success: true, data: { content: [{ type: "text", text: "hello Ada" }] } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ request: { mode: "form", message: "Who are you?" }, serverName: "modern" });
  });

  it("passes a declined answer on", async () => {
    const adapter = await connected(() => ({ action: "decline" }));
    expect(await adapter.invoke("ask")).toMatchObject({
      success: true,
      data: { content: [{ text: "no answer (decline)" }] },
    });
  });

  it("fails the call with the handler's failure in the adapter's terms, and nothing reaches the server", async () => {
    const adapter = await connected(() => {
      throw new Error("the dialog crashed");
    });
    const before = server.methods.filter((method) => method === "tools/call").length;
    const result = await adapter.invoke("ask");
    // In the seam's terms (no SDK 1.x "MCP error -32603:" prefix), classified as on the default engine.
    expect(result).toMatchObject({
      success: false,
      errorKind: "server_error",
      error:
        'server error: tool "ask" on MCP server "modern" failed: The client\'s elicitation/create handler failed: the dialog crashed',
    });
    // The first leg only: the handler's failure ends the exchange on this side.
    expect(server.methods.filter((method) => method === "tools/call").length - before).toBe(1);
  });

  it("a handler that does not answer in time fails the call as a handler failure, not as the call's timeout", async () => {
    const adapter = await connected(() => new Promise(() => undefined), 50);
    const result = await adapter.invoke("ask");
    expect(result).toMatchObject({ success: false, errorKind: "server_error" });
    expect(result.error).toContain("The client's elicitation/create handler did not answer within 50 ms");
  });

  it("an answer that does not fit the requested form is refused before it is sent", async () => {
    const adapter = await connected(() => ({ action: "accept", content: { name: 42 } }));
    const result = await adapter.invoke("ask");
    expect(result).toMatchObject({ success: false, errorKind: "server_error" });
    expect(result.error).toContain("does not match its requestedSchema");
  });

  it("without an elicitation handler the call fails saying the client cannot answer", async () => {
    const adapter = await connected();
    const result = await adapter.invoke("ask");
    expect(result).toMatchObject({ success: false, errorKind: "server_error" });
    // The server reads the client's capabilities from the request and does not ask.
    expect(result.error).toContain("the request's client capabilities do not declare the required capability");
  });

  it("with InvokeOptions.inputRequired, hands the input_required back as it came and sends a retry's answers", async () => {
    const asked: unknown[] = [];
    const adapter = await connected(() => {
      asked.push("the handler");
      return { action: "accept", content: { name: "never" } };
    });
    const first = await adapter.invoke("ask", {}, { inputRequired: {} });
    expect(first).toMatchObject({ success: false, errorKind: "input_required", data: null });
    expect(first.error).toContain('tool "ask" on MCP server "modern" asks for input');
    expect(first.inputRequired?.inputRequests["who"]).toMatchObject({
      method: "elicitation/create",
      params: { message: "Who are you?" },
    });
    const retried = await adapter.invoke(
      "ask",
      {},
      { inputRequired: { inputResponses: { who: { action: "accept", content: { name: "Passed" } } } } },
    );
    expect(retried).toMatchObject({ success: true, data: { content: [{ type: "text", text: "hello Passed" }] } });
    // The handler was never asked: the caller answered.
    expect(asked).toEqual([]);
  });
});
