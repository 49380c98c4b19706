import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind } from "@opentelemetry/api";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { createGateway, type Gateway } from "../src/index.js";
import { captureSpans, isKind } from "./otel-capture.js";

// A downstream tools/call starts a SERVER span, child of the trace context the client sent in
// _meta, and the adapter's CLIENT span for the upstream call is its child: one trace from the
// client through the gateway to server-everything, read from the OTel SDK's in-memory exporter.
const { exporter, tracerProvider } = captureSpans();
let gateway: Gateway;
let client: Client;

beforeAll(async () => {
  gateway = createGateway({
    servers: { everything: { transport: "stdio", ...everythingStdioServer() } },
    serverSet: { telemetry: { tracerProvider } },
  });
  await gateway.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  client = new Client({ name: "telemetry-test", version: "1" });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client.close();
  await gateway.close();
}, 30_000);

describe("OpenTelemetry through the gateway", () => {
  it("links the client's trace, the gateway's server span and the upstream call's client span", async () => {
    exporter.reset();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const clientSpanId = "00f067aa0ba902b7";
    const result = await client.callTool({
      name: "echo",
      arguments: { message: "traced" },
      _meta: { traceparent: `00-${traceId}-${clientSpanId}-01` },
    });
    expect(JSON.stringify(result.content)).toContain("traced");
    const spans = exporter.getFinishedSpans();
    const server = spans.find((span) => isKind(span, SpanKind.SERVER));
    const upstream = spans.find((span) => isKind(span, SpanKind.CLIENT) && span.name.startsWith("tools/call"));
    expect(server?.name).toBe("tools/call echo");
    expect(server?.spanContext().traceId).toBe(traceId);
    expect(server?.parentSpanContext?.spanId).toBe(clientSpanId);
    expect(upstream?.spanContext().traceId).toBe(traceId);
    expect(upstream?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
  });

  it("starts a new trace when the client sent none", async () => {
    exporter.reset();
    await client.callTool({ name: "echo", arguments: { message: "untraced" } });
    const spans = exporter.getFinishedSpans();
    const server = spans.find((span) => isKind(span, SpanKind.SERVER));
    const upstream = spans.find((span) => isKind(span, SpanKind.CLIENT) && span.name.startsWith("tools/call"));
    expect(server?.parentSpanContext).toBeUndefined();
    expect(upstream?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
  });
});
