import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  Server,
} from "@modelcontextprotocol/server";
import { everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { createGateway, listenHttp, type Gateway, type GatewayHttpServer } from "../src/index.js";
import type { SpanConnection } from "../src/request-span.js";
import { spanSdkAnsweredExchange } from "../src/sdk-answered-spans.js";
import { sendWebResponse, toWebRequest } from "../src/web-exchange.js";
import { captureSpans, isKind } from "./otel-capture.js";

// The spans of requests no handler of the gateway's sees: they come from the HTTP exchange (the
// request in, the SDK's response out). An answer streamed as server-sent events is read as it
// passes, so an error that ends the stream ends the span as a JSON error would; and every request
// of a batch gets a span of its own. Read from the real OTel SDK's in-memory exporter.

const { exporter, tracerProvider } = captureSpans();

let nextTrace = 1;
/** A fresh client trace for one request: its `_meta` carries the traceparent. */
function clientTrace(): { traceId: string; traceparent: string } {
  const traceId = (nextTrace++).toString(16).padStart(32, "c");
  return { traceId, traceparent: `00-${traceId}-00f067aa0ba902b7-01` };
}

function serverSpansOf(traceId: string): ReadableSpan[] {
  return exporter
    .getFinishedSpans()
    .filter((span) => span.spanContext().traceId === traceId && isKind(span, SpanKind.SERVER));
}

describe("an error that ends an event-stream answer", () => {
  // The v2 SDK's own HTTP handler, answering with an event stream (its `sse` response mode), behind
  // the exchange spans over real HTTP; its tools/call reports progress, then fails.
  let http: HttpServer;
  let url: URL;
  const spans: SpanConnection = { tracerProvider, meterProvider: undefined, networkTransport: "tcp" };

  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level server, as the gateway's
  function failingServer(): Server {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level server, as the gateway's
    const server = new Server({ name: "failing", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const token = request.params._meta?.progressToken;
      if (token !== undefined)
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: 1 } });
      if (request.params.name === "bad_arguments") throw new ProtocolError(-32602, "The arguments are not right.");
      throw new ProtocolError(-32603, "The tool broke.");
    });
    return server;
  }

  beforeAll(async () => {
    const handler = createMcpHandler(failingServer, { legacy: "reject", responseMode: "sse" });
    http = createServer((request, response) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body: unknown = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const web = toWebRequest(request, response);
        const answer = await spanSdkAnsweredExchange(
          body,
          spans,
          () => handler.fetch(web, body === undefined ? {} : { parsedBody: body }),
          new Set(["tools/call"]),
        );
        await sendWebResponse(response, answer);
      })();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });

  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  async function callFailing(name: string): Promise<{ error: unknown; progress: number[]; traceId: string }> {
    const client = new Client2026(
      { name: "sse-error", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new Http2026(url));
    const { traceId, traceparent } = clientTrace();
    const progress: number[] = [];
    const error = await client
      .request({ method: "tools/call", params: { name, arguments: {}, _meta: { traceparent } } } as never, {
        onprogress: (update: { progress: number }) => progress.push(update.progress),
      })
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    await client.close();
    return { error, progress, traceId };
  }

  it("ends the span with ERROR and the JSON-RPC code, and the client gets every event first", async () => {
    const { error, progress, traceId } = await callFailing("breaks");
    // What the client was sent is all there: the progress, then the error.
    expect(progress).toEqual([1]);
    expect(error).toMatchObject({ code: -32603 });
    const [span, ...more] = serverSpansOf(traceId);
    expect(more).toEqual([]);
    expect(span!.name).toBe("tools/call breaks");
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: "The tool broke." });
    expect(span!.attributes).toMatchObject({
      "error.type": "-32603",
      "rpc.response.status_code": "-32603",
      "mcp.method.name": "tools/call",
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "tcp",
    });
  });

  it("records a client's fault the same way and leaves the status unset, as for a JSON answer", async () => {
    const { error, traceId } = await callFailing("bad_arguments");
    expect(error).toMatchObject({ code: -32602 });
    const [span] = serverSpansOf(traceId);
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });
});

describe("batches: a span for every request in one", () => {
  let gateway: Gateway;
  let http: GatewayHttpServer;

  beforeAll(async () => {
    gateway = createGateway({
      servers: { everything: { transport: "stdio", ...everythingStdioServer() } },
      serverSet: { telemetry: { tracerProvider } },
    });
    expect((await gateway.start()).failed).toEqual([]);
    http = await listenHttp(gateway, {});
  }, 60_000);

  afterAll(async () => {
    await http.close();
    await gateway.close();
  }, 30_000);

  function envelope(traceparent: string): Record<string, unknown> {
    return {
      traceparent,
      [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
      [CLIENT_INFO_META_KEY]: { name: "batch-by-hand", version: "1" },
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
  }

  it("2026-07-28: the revision has no batches; each request's span records the refusal it got", async () => {
    const { traceId, traceparent } = clientTrace();
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope(traceparent) } },
      { jsonrpc: "2.0", id: "discover", method: "server/discover", params: { _meta: envelope(traceparent) } },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "echo", arguments: { message: "in a batch" }, _meta: envelope(traceparent) },
      },
      // A notification has no answer and no span.
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: envelope(traceparent) } },
    ];
    const response = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { code: number } };
    expect(answer.error.code).toBe(-32600);

    const spans = serverSpansOf(traceId);
    const byId = new Map(spans.map((span) => [span.attributes["jsonrpc.request.id"], span]));
    expect([...byId.keys()].sort()).toEqual(["1", "3", "discover"]);
    expect(byId.get("1")!.name).toBe("tools/list");
    expect(byId.get("discover")!.name).toBe("server/discover");
    expect(byId.get("3")!.name).toBe("tools/call echo");
    for (const span of spans) {
      expect(span.attributes).toMatchObject({
        "error.type": "-32600",
        "rpc.response.status_code": "-32600",
        "mcp.protocol.version": "2026-07-28",
        "network.transport": "tcp",
      });
      // -32600 says the client's request was at fault: the status stays unset.
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it("2025-03-26 session: each request of a batch has its own span, answered or failed on its own", async () => {
    // A real SDK 1.x client opens the session at the revision that still has batches.
    const client = new Client2025({ name: "batch-session", version: "1" });
    const transport = new Http2025(new URL(http.url));
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    const { traceId, traceparent } = clientTrace();
    const response = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-03-26",
      },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: { traceparent } } },
        { jsonrpc: "2.0", id: 11, method: "ping", params: { _meta: { traceparent } } },
        { jsonrpc: "2.0", id: 12, method: "prompts/get", params: { name: "no_such_prompt", _meta: { traceparent } } },
      ]),
    });
    expect(response.status).toBe(200);
    const answers = (await response.json()) as { id: number; error?: { code: number } }[];
    expect(answers.map((answer) => answer.id).sort()).toEqual([10, 11, 12]);
    await client.close();

    const spans = serverSpansOf(traceId);
    const byId = new Map(spans.map((span) => [span.attributes["jsonrpc.request.id"], span]));
    expect([...byId.keys()].sort()).toEqual(["10", "11", "12"]);
    expect(byId.get("10")!.name).toBe("tools/list");
    expect(byId.get("10")!.attributes["error.type"]).toBeUndefined();
    expect(byId.get("11")!.name).toBe("ping");
    expect(byId.get("12")!.name).toBe("prompts/get no_such_prompt");
    expect(byId.get("12")!.attributes["error.type"]).toBe("-32602");
    for (const span of spans) expect(span.attributes["mcp.session.id"]).toBe(sessionId);
  });
});
