import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import { EVERYTHING_TARGETS, type RunningEverything } from "@mcp-tool-adapter/test-servers";
import { createGateway, listenHttp, serveStdio, type Gateway, type GatewayHttpServer } from "../src/index.js";
import { captureSpans, isKind } from "./otel-capture.js";

// Every downstream request the gateway answers itself gets a SERVER span, child of the trace
// context the client sent in `_meta`, and the adapter's CLIENT span of the upstream request it
// forwards is that span's child: one trace from the client through the gateway to server-everything.
// Both eras on both downstream transports (stdio streams served by serveStdio, streamable HTTP),
// server-everything upstream over stdio and over streamable HTTP; the spans are read from the real
// OTel SDK's in-memory exporter.

const { exporter, tracerProvider } = captureSpans();

/** What each downstream client is asked to send; each request carries its own `_meta`. */
interface DownstreamClient {
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** Opens a 2026-07-28 `subscriptions/listen` stream; resolves to what closes it. */
  listen?(): Promise<{ close(): Promise<void> }>;
  close(): Promise<void>;
}

/** Writes and reads newline-delimited JSON-RPC on the gateway's stdio streams, as a host's pipe would. */
function stdioPipes(gateway: Gateway): { client: StdioServerTransport; served: Promise<unknown> } {
  const toGateway = new PassThrough();
  const fromGateway = new PassThrough();
  // The SDK's stdio transport reads one stream and writes the other: the client's side of the pipe.
  return {
    client: new StdioServerTransport(fromGateway, toGateway),
    served: serveStdio(gateway, { stdin: toGateway, stdout: fromGateway }),
  };
}

async function client2025(
  transport: ConstructorParameters<typeof Http2025>[0] | StdioServerTransport,
): Promise<DownstreamClient> {
  const client = new Client2025({ name: "span-test-2025", version: "1" });
  await client.connect(transport instanceof URL ? new Http2025(transport) : transport);
  return {
    // The SDK 1.x client checks the answer against no schema of ours here: any result passes.
    request: (method, params) => client.request({ method, params }, AnyResult),
    close: () => client.close(),
  };
}

async function client2026(transport: URL | StdioServerTransport): Promise<DownstreamClient> {
  const client = new Client2026(
    { name: "span-test-2026", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(transport instanceof URL ? new Http2026(transport) : transport);
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return {
    request: (method, params) => client.request({ method, params } as never),
    listen: () => client.listen({ toolsListChanged: true }),
    close: () => client.close(),
  };
}

const AnyResult = {
  parse: (value: unknown) => value,
  safeParse: (value: unknown) => ({ success: true, data: value }),
} as never;

interface Downstream {
  readonly label: string;
  readonly era: "2025" | "2026-07-28";
  connect(gateway: Gateway, http: GatewayHttpServer): Promise<DownstreamClient>;
}

const DOWNSTREAMS: readonly Downstream[] = [
  { label: "2025 session over stdio", era: "2025", connect: async (gateway) => client2025(stdioPipes(gateway).client) },
  { label: "2025 session over HTTP", era: "2025", connect: (_gateway, http) => client2025(new URL(http.url)) },
  { label: "2026-07-28 over stdio", era: "2026-07-28", connect: (gateway) => client2026(stdioPipes(gateway).client) },
  { label: "2026-07-28 over HTTP", era: "2026-07-28", connect: (_gateway, http) => client2026(new URL(http.url)) },
];

let nextTrace = 1;
/** A fresh client-side trace context for one request: the trace id and the client span's id. */
function clientTrace(): { traceId: string; spanId: string; meta: { traceparent: string } } {
  const traceId = (nextTrace++).toString(16).padStart(32, "a");
  const spanId = "00f067aa0ba902b7";
  return { traceId, spanId, meta: { traceparent: `00-${traceId}-${spanId}-01` } };
}

/** The gateway's SERVER span of one trace, and the adapter's CLIENT spans under it. */
function spansOf(traceId: string): { server: ReadableSpan; upstream: ReadableSpan[] } {
  const inTrace = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const servers = inTrace.filter((span) => isKind(span, SpanKind.SERVER));
  expect(servers).toHaveLength(1);
  const server = servers[0]!;
  const upstream = inTrace.filter(
    (span) => isKind(span, SpanKind.CLIENT) && span.parentSpanContext?.spanId === server.spanContext().spanId,
  );
  return { server, upstream };
}

describe.each(EVERYTHING_TARGETS)("server-everything upstream over $label", (target) => {
  let everything: RunningEverything;
  let gateway: Gateway;
  let http: GatewayHttpServer;

  beforeAll(async () => {
    everything = await target.start();
    const { name: _name, ...config } = everything.config;
    gateway = createGateway({ servers: { everything: config }, serverSet: { telemetry: { tracerProvider } } });
    const report = await gateway.start();
    expect(report.failed).toEqual([]);
    http = await listenHttp(gateway, {});
  }, 120_000);

  afterAll(async () => {
    await http.close();
    await gateway.close();
    await everything.stop();
  }, 60_000);

  describe.each(DOWNSTREAMS)("a client of the $label", (downstream) => {
    let client: DownstreamClient;
    /** The SERVER spans of this client's initialize (2025 era): the SDK answers it, not the gateway's handlers. */
    let initializeSpans: ReadableSpan[];
    const networkTransport = downstream.label.endsWith("stdio") ? "pipe" : "tcp";
    beforeAll(async () => {
      const before = exporter.getFinishedSpans().length;
      client = await downstream.connect(gateway, http);
      initializeSpans = exporter
        .getFinishedSpans()
        .slice(before)
        .filter((span) => isKind(span, SpanKind.SERVER) && span.name === "initialize");
    }, 60_000);
    afterAll(async () => {
      await client.close();
    }, 30_000);

    /** Sends `method` with a fresh trace context; returns the trace's spans once answered. */
    async function traced(method: string, params: Record<string, unknown> = {}) {
      const { traceId, spanId, meta } = clientTrace();
      const answer = await client.request(method, { ...params, _meta: meta });
      const spans = spansOf(traceId);
      expect(spans.server.parentSpanContext?.spanId).toBe(spanId);
      expect(spans.server.attributes["mcp.method.name"]).toBe(method);
      expectConnectionAttributes(spans.server);
      return { answer, ...spans };
    }

    /** What every server span says of the connection: the transport, the revision, the session where there is one. */
    function expectConnectionAttributes(span: ReadableSpan): void {
      expect(span.attributes["network.transport"]).toBe(networkTransport);
      expect(span.attributes["jsonrpc.request.id"]).toMatch(/^\S+$/u);
      if (downstream.era === "2026-07-28") {
        expect(span.attributes["mcp.protocol.version"]).toBe("2026-07-28");
        expect(span.attributes["mcp.session.id"]).toBeUndefined();
      } else {
        expect(span.attributes["mcp.protocol.version"]).toMatch(/^2025-/u);
        // Only streamable HTTP gives a 2025 session an id.
        if (networkTransport === "tcp") expect(span.attributes["mcp.session.id"]).toMatch(/\S/u);
        else expect(span.attributes["mcp.session.id"]).toBeUndefined();
      }
    }

    it.runIf(downstream.era === "2025")("initialize: a server span though the SDK answers it", () => {
      expect(initializeSpans).toHaveLength(1);
      const [span] = initializeSpans;
      expect(span!.attributes).toMatchObject({
        "mcp.method.name": "initialize",
        "network.transport": networkTransport,
      });
      expectConnectionAttributes(span!);
      expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    });

    it.runIf(downstream.era === "2026-07-28")("server/discover: a server span though the SDK answers it", async () => {
      const { answer, server } = await traced("server/discover");
      expect((answer as { supportedVersions: string[] }).supportedVersions).toContain("2026-07-28");
      expect(server.name).toBe("server/discover");
      expect(server.status.code).toBe(SpanStatusCode.UNSET);
    });

    it.runIf(downstream.era === "2026-07-28")(
      "subscriptions/listen: a server span that ends with the stream",
      async () => {
        const listens = () =>
          exporter
            .getFinishedSpans()
            .filter((span) => isKind(span, SpanKind.SERVER) && span.name === "subscriptions/listen");
        const before = listens().length;
        const subscription = await client.listen!();
        // Open: acknowledged, and no span ended yet.
        expect(listens()).toHaveLength(before);
        await subscription.close();
        await expect.poll(() => listens().length).toBe(before + 1);
        const span = listens().at(-1)!;
        expect(span.attributes["mcp.method.name"]).toBe("subscriptions/listen");
        expectConnectionAttributes(span);
      },
    );

    it.runIf(downstream.era === "2025")("ping: a server span though the SDK answers it", async () => {
      const { answer, server } = await traced("ping");
      expect(answer).toEqual({});
      expect(server.name).toBe("ping");
    });

    it.runIf(downstream.era === "2025")("logging/setLevel: a server span though the SDK answers it", async () => {
      const { server } = await traced("logging/setLevel", { level: "warning" });
      expect(server.name).toBe("logging/setLevel");
      expect(server.status.code).toBe(SpanStatusCode.UNSET);
    });

    /** The one upstream CLIENT span of `name` under the server span, in the client's trace. */
    function forwardedAs(upstream: ReadableSpan[], name: string): ReadableSpan {
      const matching = upstream.filter((span) => span.name === name);
      expect(matching).toHaveLength(1);
      return matching[0]!;
    }

    it("tools/list: a server span named after the method, answered from the catalog", async () => {
      const { answer, server } = await traced("tools/list");
      expect((answer as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
      expect(server.name).toBe("tools/list");
      expect(server.status.code).toBe(SpanStatusCode.UNSET);
    });

    it("tools/call: the upstream call's client span is the server span's child", async () => {
      const { answer, server, upstream } = await traced("tools/call", { name: "echo", arguments: { message: "hi" } });
      expect(JSON.stringify(answer)).toContain("hi");
      expect(server.name).toBe("tools/call echo");
      expect(server.attributes).toMatchObject({ "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool" });
      expect(forwardedAs(upstream, "tools/call echo").attributes["gen_ai.tool.name"]).toBe("echo");
    });

    it("prompts/list and prompts/get: named after the prompt, forwarded in the same trace", async () => {
      const listed = await traced("prompts/list");
      expect(listed.server.name).toBe("prompts/list");
      forwardedAs(listed.upstream, "prompts/list");

      const got = await traced("prompts/get", { name: "simple-prompt" });
      expect((got.answer as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
      expect(got.server.name).toBe("prompts/get simple-prompt");
      expect(got.server.attributes["gen_ai.prompt.name"]).toBe("simple-prompt");
      expect(forwardedAs(got.upstream, "prompts/get simple-prompt").attributes["gen_ai.prompt.name"]).toBe(
        "simple-prompt",
      );
    });

    it("resources/list, resources/templates/list and resources/read: the URI an attribute, not the name", async () => {
      const listed = await traced("resources/list");
      forwardedAs(listed.upstream, "resources/list");
      const uri = (listed.answer as { resources: { uri: string }[] }).resources[0]?.uri ?? "";
      expect(uri).not.toBe("");

      const templates = await traced("resources/templates/list");
      expect(templates.server.name).toBe("resources/templates/list");
      forwardedAs(templates.upstream, "resources/templates/list");

      const read = await traced("resources/read", { uri });
      expect(read.server.name).toBe("resources/read");
      expect(read.server.attributes["mcp.resource.uri"]).toBe(uri);
      expect(forwardedAs(read.upstream, "resources/read").attributes["mcp.resource.uri"]).toBe(uri);
    });

    it("completion/complete: forwarded in the same trace", async () => {
      const { answer, server, upstream } = await traced("completion/complete", {
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "department", value: "" },
      });
      expect((answer as { completion: { values: string[] } }).completion.values).toContain("Engineering");
      expect(server.name).toBe("completion/complete");
      forwardedAs(upstream, "completion/complete");
    });

    it.runIf(downstream.era === "2025")(
      "resources/subscribe: forwarded to the upstream that owns the URI",
      async () => {
        // A URI of this client alone: a second subscriber of a URI the upstream already sends is not sent again.
        const uri = `demo://resource/dynamic/text/${downstream.label.includes("stdio") ? "11" : "12"}`;
        const { server, upstream } = await traced("resources/subscribe", { uri });
        expect(server.name).toBe("resources/subscribe");
        expect(server.attributes["mcp.resource.uri"]).toBe(uri);
        expect(forwardedAs(upstream, "resources/subscribe").attributes["mcp.resource.uri"]).toBe(uri);
      },
    );

    it("an unknown prompt: the error's code recorded, the status left to the client's fault", async () => {
      const { traceId, meta } = clientTrace();
      await expect(client.request("prompts/get", { name: "no-such-prompt", _meta: meta })).rejects.toThrow(
        /Unknown prompt "no-such-prompt"/u,
      );
      const { server } = spansOf(traceId);
      expect(server.name).toBe("prompts/get no-such-prompt");
      expect(server.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
      // The conventions: invalid params is the caller's fault, not the server's error.
      expect(server.status.code).toBe(SpanStatusCode.UNSET);
    });

    it("an upstream that fails the read: error spans on both sides, each with its classified code", async () => {
      const { traceId, meta } = clientTrace();
      const uri = "demo://resource/static/document/no-such-document.md";
      await expect(client.request("resources/read", { uri, _meta: meta })).rejects.toThrow(/not found/u);
      const { server, upstream } = spansOf(traceId);
      expect(server.status.code).toBe(SpanStatusCode.ERROR);
      expect(server.status.message).toMatch(/not found/u);
      expect(server.attributes).toMatchObject({ "error.type": "-32603", "mcp.resource.uri": uri });
      const read = forwardedAs(upstream, "resources/read");
      expect(read.status.code).toBe(SpanStatusCode.ERROR);
      expect(read.attributes["error.type"]).toBe("server_error");
    });

    it("a tool's own failure: error.type tool_error on the server span", async () => {
      const { traceId, meta } = clientTrace();
      const answer = await client.request("tools/call", {
        name: "get-sum",
        arguments: { a: "two", b: 3 },
        _meta: meta,
      });
      expect((answer as { isError?: boolean }).isError).toBe(true);
      const { server } = spansOf(traceId);
      expect(server.attributes["error.type"]).toBe("tool_error");
      expect(server.status.code).toBe(SpanStatusCode.ERROR);
    });
  });
});
