import { propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { TestTool } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { MCPToolResult } from "../src/index.js";
import { createHarness } from "./helpers.js";

// The adapter loads @opentelemetry/api only once something is registered with it (or providers
// are given); these tests register the real SDK only after the adapter module was imported (above,
// through ./helpers.js), in a file of their own so nothing is registered when they start.

const ECHO_META: TestTool = {
  name: "echo_meta",
  annotations: { readOnlyHint: true },
  handler: (_args, extra) => ({ content: [{ type: "text", text: JSON.stringify(extra._meta ?? null) }] }),
};

function sentMeta(result: MCPToolResult): unknown {
  return JSON.parse((result.data?.content[0] as { text: string }).text);
}

describe("OpenTelemetry registered after the adapter was imported (real SDK)", () => {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  afterEach(() => {
    trace.disable();
    propagation.disable();
    exporter.reset();
  });
  afterAll(() => tracerProvider.shutdown());

  it("finds what the real SDK registers under the global key the adapter reads", () => {
    expect(trace.setGlobalTracerProvider(tracerProvider)).toBe(true);
    const keys = Object.getOwnPropertySymbols(globalThis).filter((key) =>
      key.description?.startsWith("opentelemetry.js.api."),
    );
    // The adapter and the gateway read major 1's key (core's otel-registered.ts): a new API major must change it.
    expect(keys).toEqual([Symbol.for("opentelemetry.js.api.1")]);
    expect((globalThis as Record<symbol, Record<string, unknown> | undefined>)[keys[0]!]?.["trace"]).toBeDefined();
  });

  it("with nothing registered at connect, traces from the first call after a provider is registered", async () => {
    const { adapter } = createHarness({ tools: [ECHO_META] });
    await adapter.connect();
    expect(sentMeta(await adapter.invoke("echo_meta", {}))).toBeNull();
    expect(exporter.getFinishedSpans()).toEqual([]);

    trace.setGlobalTracerProvider(tracerProvider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const traced = await adapter.invoke("echo_meta", {});
    await adapter.disconnect();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["tools/call echo_meta"]);
    expect((sentMeta(traced) as { traceparent?: string } | null)?.traceparent).toMatch(/^00-[0-9a-f]{32}-/u);
  });

  it("a provider registered before connect traces the connect, the listing and the calls", async () => {
    const { adapter } = createHarness({ tools: [ECHO_META] });
    trace.setGlobalTracerProvider(tracerProvider);
    await adapter.connect();
    await adapter.invoke("echo_meta", {});
    await adapter.disconnect();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      "initialize",
      "tools/list",
      "tools/call echo_meta",
    ]);
  });

  it("telemetry: false stays off when a provider is registered later", async () => {
    const { adapter } = createHarness({ tools: [ECHO_META] }, { telemetry: false });
    await adapter.connect();
    trace.setGlobalTracerProvider(tracerProvider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    expect(sentMeta(await adapter.invoke("echo_meta", {}))).toBeNull();
    await adapter.disconnect();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
