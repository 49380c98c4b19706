import { context, propagation, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, MetricReader, type HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { TestTool } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "../src/index.js";
import { connectedHarness, createHarness } from "./helpers.js";

/** A reader the test collects from on demand. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const ECHO_META: TestTool = {
  name: "echo_meta",
  annotations: { readOnlyHint: true },
  handler: (_args, extra) => ({ content: [{ type: "text", text: JSON.stringify(extra._meta ?? null) }] }),
};
const FAILS: TestTool = {
  name: "fails",
  handler: () => ({ isError: true, content: [{ type: "text", text: "no such row" }] }),
};

describe("OpenTelemetry (real SDK, in-memory exporter)", () => {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });

  beforeAll(() => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(async () => {
    propagation.disable();
    context.disable();
    trace.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  });

  async function histogramPoints() {
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((m) => m.descriptor.name === "mcp.client.operation.duration") as HistogramMetricData | undefined;
    return metric;
  }

  it("traces connect, tools/list and tools/call with the MCP and GenAI attributes, and sends traceparent in _meta", async () => {
    exporter.reset();
    const { adapter } = await connectedHarness(
      { tools: [ECHO_META, FAILS] },
      { telemetry: { tracerProvider, meterProvider } },
    );
    const ok = await adapter.invoke("echo_meta", {});
    const failed = await adapter.invoke("fails", {});
    await adapter.disconnect();

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      "initialize",
      "tools/list",
      "tools/call echo_meta",
      "tools/call fails",
    ]);
    const call = spans[2]!;
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo_meta",
      "network.transport": "pipe",
    });
    expect(call.attributes["error.type"]).toBeUndefined();
    expect(spans[3]!.attributes["error.type"]).toBe("server_error");
    expect(spans[3]!.status).toEqual({ code: SpanStatusCode.ERROR, message: failed.error });

    // The server received the call span's own context: same trace, the span as parent.
    const meta = JSON.parse((ok.data?.content[0] as { text: string }).text) as { traceparent?: string };
    const { traceId, spanId } = call.spanContext();
    expect(meta.traceparent).toBe(`00-${traceId}-${spanId}-01`);

    const histogram = await histogramPoints();
    expect(histogram?.descriptor.unit).toBe("s");
    const byMethod = (method: string, tool?: string) =>
      histogram?.dataPoints.find(
        (point) => point.attributes["mcp.method.name"] === method && point.attributes["gen_ai.tool.name"] === tool,
      );
    expect(byMethod("tools/call", "echo_meta")?.value.count).toBe(1);
    expect(byMethod("tools/call", "fails")?.attributes["error.type"]).toBe("server_error");
    expect(byMethod("initialize")?.value.count).toBe(1);
  });

  it("traces prompts, resources and completions, named after their prompt, with the URI an attribute", async () => {
    exporter.reset();
    const { adapter } = await connectedHarness(
      {
        prompts: [{ name: "greet", arguments: [{ name: "who" }] }],
        resources: [
          { uri: "test://doc", name: "doc" },
          {
            uri: "test://broken",
            name: "broken",
            read: () => {
              throw new Error("disk on fire");
            },
          },
        ],
        complete: () => ["Ada"],
      },
      { telemetry: { tracerProvider, meterProvider } },
    );
    expect((await adapter.getPrompt("greet", { who: "Ada" })).success).toBe(true);
    expect((await adapter.readResource("test://doc")).success).toBe(true);
    const broken = await adapter.readResource("test://broken");
    expect(broken.errorKind).toBe("server_error");
    expect((await adapter.complete({ type: "ref/prompt", name: "greet" }, { name: "who", value: "A" })).success).toBe(
      true,
    );
    await adapter.disconnect();

    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.name !== "initialize" && span.name !== "tools/list");
    expect(spans.map((span) => span.name)).toEqual([
      "prompts/list",
      "prompts/get greet",
      "resources/read",
      "resources/read",
      "completion/complete",
    ]);
    for (const span of spans) expect(span.kind).toBe(SpanKind.CLIENT);
    expect(spans[1]!.attributes).toMatchObject({ "mcp.method.name": "prompts/get", "gen_ai.prompt.name": "greet" });
    expect(spans[2]!.attributes["mcp.resource.uri"]).toBe("test://doc");
    expect(spans[3]!.attributes).toMatchObject({ "mcp.resource.uri": "test://broken", "error.type": "server_error" });
    expect(spans[3]!.status.code).toBe(SpanStatusCode.ERROR);

    // The URI names a span, never a metric point: its cardinality has no bound.
    const histogram = await histogramPoints();
    const reads = histogram?.dataPoints.filter((point) => point.attributes["mcp.method.name"] === "resources/read");
    expect(reads?.map((point) => point.attributes["mcp.resource.uri"])).toEqual([undefined, undefined]);
  });

  it("parents the call span on the caller's active span", async () => {
    exporter.reset();
    const { adapter } = await connectedHarness(
      { tools: [ECHO_META] },
      { telemetry: { tracerProvider, meterProvider } },
    );
    const parent = tracerProvider.getTracer("test").startSpan("agent step");
    await context.with(trace.setSpan(context.active(), parent), () => adapter.invoke("echo_meta", {}));
    parent.end();
    await adapter.disconnect();
    const call = exporter.getFinishedSpans().find((span) => span.name === "tools/call echo_meta");
    expect(call?.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(call?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });

  it("records mcp.client.session.duration when a session ends: disconnected, or lost with error.type", async () => {
    const sessions = async () => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((m) => m.descriptor.name === "mcp.client.session.duration") as HistogramMetricData | undefined;
    };
    const countWith = async (errorType: string | undefined) =>
      ((await sessions())?.dataPoints ?? [])
        .filter((point) => point.attributes["error.type"] === errorType)
        .reduce((sum, point) => sum + point.value.count, 0);
    const [endedBefore, lostBefore] = [await countWith(undefined), await countWith("connection_lost")];

    const { adapter } = await connectedHarness({ tools: [ECHO_META] }, { telemetry: { meterProvider } });
    await adapter.disconnect();
    expect(await countWith(undefined)).toBe(endedBefore + 1);
    const metric = await sessions();
    expect(metric?.descriptor.unit).toBe("s");
    const [point] = metric!.dataPoints.filter((p) => p.attributes["error.type"] === undefined);
    expect(point!.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    expect(point!.attributes).toMatchObject({
      "network.transport": "pipe",
      "mcp.protocol.version": expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/u) as string,
    });

    // The server side of the pipe goes away: the session is lost, not ended by the client.
    const server = createHarness({ tools: [ECHO_META] }).server;
    let clientSide: { close(): Promise<void> } | undefined;
    const lost = new MCPToolAdapter(
      { name: "lost", transport: "stdio", command: "unused" },
      {
        transport: async () => {
          const transport = await server.connect();
          clientSide = transport;
          return transport;
        },
        telemetry: { meterProvider },
      },
    );
    await lost.connect();
    await clientSide!.close();
    await expect.poll(() => countWith("connection_lost")).toBe(lostBefore + 1);
    await lost.disconnect();
    // Already lost: its disconnect records nothing more.
    expect(await countWith(undefined)).toBe(endedBefore + 1);
  });

  it("records a failed connect with error.type and server.address / server.port from an HTTP url", async () => {
    exporter.reset();
    const adapter = new MCPToolAdapter(
      { name: "web", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" },
      { transport: () => Promise.reject(new Error("ECONNREFUSED")), telemetry: { tracerProvider, meterProvider } },
    );
    await expect(adapter.connect()).rejects.toThrow(/Could not establish a connection/u);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("initialize");
    expect(span?.attributes).toMatchObject({
      "error.type": "connection_failed",
      "server.address": "127.0.0.1",
      "server.port": 9,
      "network.transport": "tcp",
      "network.protocol.name": "http",
    });
  });

  it("uses the global providers when none are given, and with none registered sends no _meta at all", async () => {
    const { adapter } = await connectedHarness({ tools: [ECHO_META] });
    const unobserved = await adapter.invoke("echo_meta", {});
    expect(JSON.parse((unobserved.data?.content[0] as { text: string }).text)).toBeNull();

    exporter.reset();
    expect(trace.setGlobalTracerProvider(tracerProvider)).toBe(true);
    await adapter.invoke("echo_meta", {});
    trace.disable();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["tools/call echo_meta"]);
    await adapter.disconnect();
  });

  it("telemetry: false creates no spans even with a provider registered", async () => {
    exporter.reset();
    trace.setGlobalTracerProvider(tracerProvider);
    const { adapter } = createHarness({ tools: [ECHO_META] }, { telemetry: false });
    await adapter.connect();
    await adapter.invoke("echo_meta", {});
    await adapter.disconnect();
    trace.disable();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
