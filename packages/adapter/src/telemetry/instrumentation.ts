import type * as OTelApi from "@opentelemetry/api";
import type { Attributes, Histogram, MeterProvider, Span, Tracer, TracerProvider } from "@opentelemetry/api";
import type { MCPServerConfig } from "../config.js";
import { describeMCPRequestSpan, OTEL_GLOBAL_KEY, otelRegistered } from "@mcp-tool-adapter/core";
import {
  ATTR_ERROR_TYPE,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  MCP_DURATION_BUCKETS,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_CLIENT_SESSION_DURATION,
} from "./semconv.js";

/** Where spans and metrics go. Without providers the globally registered ones are used (nothing happens when none is). */
export interface MCPTelemetryOptions {
  tracerProvider?: TracerProvider;
  meterProvider?: MeterProvider;
}

const INSTRUMENTATION_NAME = "@mcp-tool-adapter/adapter";

/** Read by tool calls before they enter this module (see ToolCalls.invoke). */
export { OTEL_GLOBAL_KEY };

/** What can observe an operation: a span or metric provider, a propagator, a context manager. */
const OBSERVING_GLOBALS = ["trace", "metrics", "propagation", "context"] as const;

let apiLoading: Promise<typeof OTelApi> | undefined;
function loadApi(): Promise<typeof OTelApi> {
  apiLoading ??= import("@opentelemetry/api");
  return apiLoading;
}

/** One traced MCP operation; `end` records its span and its duration once. */
export interface TracedOperation {
  readonly span: Span;
  readonly attributes: Attributes;
  /** The loaded API the span came from. */
  readonly api: typeof OTelApi;
}

/**
 * Spans and the duration histogram of connect, list and call, through @opentelemetry/api only.
 * The API is loaded (in an async path: connect, list, call) only once something can observe:
 * providers given in the options or anything registered globally, also after connect. Until then
 * an adapter pays for one global lookup per operation and nothing else.
 */
export class Instrumentation {
  #api: typeof OTelApi | undefined;
  readonly #tracerProvider: TracerProvider | undefined;
  readonly #meterProvider: MeterProvider | undefined;
  readonly #serverAttributes: Attributes;
  #tracer: Tracer | undefined;
  /** The histograms of the meter provider they were made from; made again when the global provider changes. */
  #histograms: ClientHistograms | undefined;

  /**
   * True once every operation is observed: providers were given, or the API is loaded. A plain
   * field: while it is false and no copy of the OpenTelemetry API registered anything in the
   * process (no `OTEL_GLOBAL_KEY` on globalThis), a tool call need not enter this module at all.
   */
  observedForSure: boolean;

  constructor(options: MCPTelemetryOptions, config: MCPServerConfig) {
    this.#tracerProvider = options.tracerProvider;
    this.#meterProvider = options.meterProvider;
    this.observedForSure = options.tracerProvider !== undefined || options.meterProvider !== undefined;
    this.#serverAttributes = serverAttributes(config);
  }

  /** Whether operations are traced now or once `ready` resolved; cheap enough to ask per call. */
  get observed(): boolean {
    return this.observedForSure || otelRegistered(OBSERVING_GLOBALS);
  }

  /** Loads the API when it is `observed` and not loaded yet; otherwise returns nothing to wait for. */
  ready(): Promise<void> | undefined {
    if (this.#api !== undefined || !this.observed) return undefined;
    return loadApi().then((api) => {
      this.#api = api;
      this.observedForSure = true;
    });
  }

  /**
   * Starts the client span of one request, named and described after what `params` say it is
   * about (core's describeMCPRequestSpan: `tools/call {tool}`, `prompts/get {prompt}`, the method
   * alone otherwise; a resource URI only as a span attribute, never in the metric).
   */
  start(method: string, params?: Readonly<Record<string, unknown>>, sessionId?: string): TracedOperation | undefined {
    const api = this.#api;
    if (api === undefined) return undefined;
    const { trace, SpanKind } = api;
    const described = describeMCPRequestSpan(method, params);
    const attributes: Attributes = { ...this.#serverAttributes, ...described.attributes };
    const spanAttributes: Attributes = { ...attributes };
    if (sessionId !== undefined) spanAttributes[ATTR_MCP_SESSION_ID] = sessionId;
    if (described.resourceUri !== undefined) spanAttributes[ATTR_MCP_RESOURCE_URI] = described.resourceUri;
    this.#tracer ??= (this.#tracerProvider ?? trace).getTracer(INSTRUMENTATION_NAME);
    const span = this.#tracer.startSpan(described.name, { kind: SpanKind.CLIENT, attributes: spanAttributes });
    return { span, attributes, api };
  }

  /**
   * Writes the span's trace context (W3C `traceparent`, `tracestate`) into `meta` with the
   * registered propagator; returns whether anything was written. Nothing is written for a span
   * that carries no trace (no SDK registered).
   */
  inject(operation: TracedOperation, meta: Record<string, unknown>): boolean {
    const { trace, propagation, context } = operation.api;
    if (!trace.isSpanContextValid(operation.span.spanContext())) return false;
    const before = Object.keys(meta).length;
    propagation.inject(trace.setSpan(context.active(), operation.span), meta);
    return Object.keys(meta).length !== before;
  }

  /** Ends the span (ERROR status and `error.type` on failure) and records the duration in seconds. */
  end(operation: TracedOperation, durationMs: number, failure?: { errorType: string; message: string }): void {
    const { span } = operation;
    let attributes = operation.attributes;
    if (failure !== undefined) {
      attributes = { ...attributes, [ATTR_ERROR_TYPE]: failure.errorType };
      if (span.isRecording()) {
        span.setAttribute(ATTR_ERROR_TYPE, failure.errorType);
        span.setStatus({ code: operation.api.SpanStatusCode.ERROR, message: failure.message });
      }
    }
    span.end();
    this.#histogramsOf(operation.api).operation.record(durationMs / 1000, attributes);
  }

  /**
   * Records `mcp.client.session.duration`: a session (connect until disconnect, reconnect or its
   * loss) that lasted `durationMs`, in the revision it spoke; `errorType` when it ended by failing.
   * Nothing when the API was not loaded (nothing observed the session's connect either).
   */
  sessionEnded(durationMs: number, protocolVersion: string | undefined, errorType?: string): void {
    const api = this.#api;
    if (api === undefined) return;
    const attributes: Attributes = { ...this.#serverAttributes };
    if (protocolVersion !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = protocolVersion;
    if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
    this.#histogramsOf(api).session.record(durationMs / 1000, attributes);
  }

  #histogramsOf(api: typeof OTelApi): ClientHistograms {
    const provider = this.#meterProvider ?? api.metrics.getMeterProvider();
    if (this.#histograms?.provider !== provider) {
      const meter = provider.getMeter(INSTRUMENTATION_NAME);
      const advice = { explicitBucketBoundaries: [...MCP_DURATION_BUCKETS] };
      this.#histograms = {
        provider,
        operation: meter.createHistogram(METRIC_MCP_CLIENT_OPERATION_DURATION, {
          description: "Duration of MCP requests as observed by the client, from send until the answer.",
          unit: "s",
          advice,
        }),
        session: meter.createHistogram(METRIC_MCP_CLIENT_SESSION_DURATION, {
          description: "Duration of the MCP session as observed by the client, from connect until it ends.",
          unit: "s",
          advice,
        }),
      };
    }
    return this.#histograms;
  }
}

/** The client's two MCP duration histograms, made from one meter provider. */
interface ClientHistograms {
  readonly provider: MeterProvider;
  readonly operation: Histogram;
  readonly session: Histogram;
}

function serverAttributes(config: MCPServerConfig): Attributes {
  if (config.transport === "stdio") return { [ATTR_NETWORK_TRANSPORT]: "pipe" };
  const attributes: Attributes = { [ATTR_NETWORK_TRANSPORT]: "tcp", [ATTR_NETWORK_PROTOCOL_NAME]: "http" };
  try {
    const url = new URL(config.url);
    attributes[ATTR_SERVER_ADDRESS] = url.hostname.replace(/^\[(.*)\]$/u, "$1");
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    attributes[ATTR_SERVER_PORT] = port;
  } catch {
    // A config URL that does not parse fails at connect with its own message.
  }
  return attributes;
}
