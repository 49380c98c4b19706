import { afterAll, beforeAll } from "vitest";
import { context, propagation, type SpanKind } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";

/** The real OTel SDK's spans, kept in memory for a test file to read. */
export interface CapturedSpans {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
}

/**
 * Registers, for the calling test file, what carries a client's trace through the gateway (an
 * async-hooks context manager, the W3C propagator) and a tracer provider exporting to memory;
 * all of it is taken down after the file's tests.
 */
export function captureSpans(): CapturedSpans {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(async () => {
    await tracerProvider.shutdown();
    context.disable();
    propagation.disable();
  });
  return { exporter, tracerProvider };
}

/** The SDK's spans carry the SpanKind of its own copy of the API; the values are the same. */
export function isKind(span: ReadableSpan, kind: SpanKind): boolean {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- see above
  return span.kind === kind;
}
