import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type MeterProvider,
  type Span,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  describeMCPRequestSpan,
  otelRegistered,
} from "@mcp-tool-adapter/core";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { recordSince, serverHistograms } from "./request-metrics.js";

const TRACER_NAME = "@mcp-tool-adapter/gateway";

/**
 * What can observe a downstream request: a tracer provider (its span), a propagator (a client's
 * trace passed on), a meter provider (its duration).
 */
const OBSERVING_GLOBALS = ["trace", "propagation", "metrics"] as const;

/**
 * JSON-RPC codes that say the client asked for something the gateway cannot serve (a bad request,
 * an unknown method, bad params such as an unknown tool or prompt, an unknown resource): the MCP
 * conventions keep a server span's status unset for them; every other code is the server's error.
 */
const CALLER_FAULT_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602, -32002]);

/** One downstream request as its span sees it: the SDK's request, and its JSON-RPC id where known. */
export interface SpannedRequest {
  readonly method: string;
  readonly params?: object | undefined;
  readonly id?: string | number | undefined;
  /** The revision a 2026-07-28 request names (in its `_meta` envelope); a 2025 one's is its connection's. */
  readonly protocolVersion?: string | undefined;
}

/**
 * The downstream connection (or stateless exchange) requests come in on: one object per
 * connection, so a request's span costs nothing more when nothing is traced.
 */
export interface SpanConnection {
  /** Where the spans go; default the globally registered provider. */
  readonly tracerProvider: TracerProvider | undefined;
  /** Where the request and session durations go; default the globally registered provider. */
  readonly meterProvider: MeterProvider | undefined;
  /** `pipe` for stdio, `tcp` for HTTP. */
  readonly networkTransport: "pipe" | "tcp";
  /** The 2025-era session's id, where the transport has one (HTTP). */
  readonly sessionId?: string | undefined;
  /** The revision the connection's initialize agreed on (2025 era); a 2026-07-28 request names its own. */
  protocolVersion?: string | undefined;
}

/**
 * Whether a request on `connection` can be observed: a span recorded, a client's trace passed on,
 * or its duration measured. A property read or two: cheap enough to ask per request.
 */
export function requestsObserved(connection: SpanConnection): boolean {
  // One lookup of the globals, not one per kind: this is asked per request.
  return (
    connection.tracerProvider !== undefined ||
    connection.meterProvider !== undefined ||
    otelRegistered(OBSERVING_GLOBALS)
  );
}

/**
 * The tracer of the provider last asked, kept: without a registered provider the global one hands
 * out a new proxy tracer on every call. A tracer of the global proxy provider follows whatever
 * provider is registered later, and `trace.disable()` makes a new proxy provider, so keying on the
 * provider object never keeps a stale one.
 */
let lastTracer: { provider: TracerProvider; tracer: Tracer } | undefined;

function tracerOf(provider: TracerProvider): Tracer {
  if (lastTracer?.provider !== provider) lastTracer = { provider, tracer: provider.getTracer(TRACER_NAME) };
  return lastTracer.tracer;
}

/**
 * Runs `work`, the answer to one downstream `request` (its method, wire `params` and id) on
 * `connection`, inside a SERVER span named after the MCP conventions (`tools/call {tool}`,
 * `prompts/get {prompt}`, the method alone otherwise, a resource's URI as `mcp.resource.uri`; the
 * request id, the transport, the session and the protocol revision where known), child of the
 * trace context the client sent in `params._meta` (W3C `traceparent` / `tracestate`, read by the
 * registered propagator). The adapter's CLIENT span of an upstream request the work makes, started
 * in the active context, becomes its child. With no tracer provider (given or registered) the
 * spans are no-ops.
 */
export function inRequestSpan<T>(
  request: SpannedRequest,
  connection: SpanConnection,
  work: () => Promise<T>,
): Promise<T> {
  // Nothing to record and no client's trace to pass on (no provider given, none registered, no
  // propagator): no span, no context switch, nothing made, and the work's own promise handed back.
  // The context switch cost more than the rest of the span work per forwarded call.
  if (!requestsObserved(connection)) return untraced(work);
  const startedAt = performance.now();
  // The params as they came off the wire (each SDK's own type for them has no index signature).
  const wire = request.params as Readonly<Record<string, unknown>> | undefined;
  const meta = wire?.["_meta"];
  const parent = isRecord(meta) ? propagation.extract(ROOT_CONTEXT, meta) : ROOT_CONTEXT;
  const described = describeMCPRequestSpan(request.method, wire);
  // The metric's attributes are the span's of low cardinality: no request id, session or URI.
  const measured: Attributes = { ...described.attributes, ...transportAttributes(connection) };
  const version = request.protocolVersion ?? connection.protocolVersion;
  if (version !== undefined) measured[ATTR_MCP_PROTOCOL_VERSION] = version;
  const attributes: Attributes = { ...measured };
  if (connection.sessionId !== undefined) attributes[ATTR_MCP_SESSION_ID] = connection.sessionId;
  if (described.resourceUri !== undefined) attributes[ATTR_MCP_RESOURCE_URI] = described.resourceUri;
  if (request.id !== undefined) attributes[ATTR_JSONRPC_REQUEST_ID] = String(request.id);
  const span = tracerOf(connection.tracerProvider ?? trace.getTracerProvider()).startSpan(
    described.name,
    { kind: SpanKind.SERVER, attributes },
    parent,
  );
  const duration = serverHistograms(connection.meterProvider)?.operation;
  const observation: Observation = { span, duration, measured, startedAt };
  // A no-op span (no trace id) and no trace context to pass on: no context switch. A span a sampler
  // dropped has a trace id and still becomes the parent, so its children are dropped with it.
  const traced = isSpanContextValid(span.spanContext()) || parent !== ROOT_CONTEXT;
  if (!traced && duration === undefined) return untraced(work);
  return observed(observation, traced ? trace.setSpan(parent, span) : undefined, work);
}

/** One request being observed: its span (maybe a no-op), and its duration's histogram where one records. */
interface Observation {
  readonly span: Span;
  readonly duration: Histogram | undefined;
  /** What the duration is recorded with; the outcome's `error.type` and status code are added. */
  readonly measured: Attributes;
  readonly startedAt: number;
}

/** What the conventions record of the connection's transport: `pipe`, or `tcp` carrying `http`. */
export function transportAttributes(connection: Pick<SpanConnection, "networkTransport">): Attributes {
  return connection.networkTransport === "tcp"
    ? { [ATTR_NETWORK_TRANSPORT]: "tcp", [ATTR_NETWORK_PROTOCOL_NAME]: "http" }
    : { [ATTR_NETWORK_TRANSPORT]: "pipe" };
}

/** `work()`, a synchronous throw turned into a rejection as an async function would. Not async: no wrapper promise. */
function untraced<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

async function observed<T>(observation: Observation, active: Context | undefined, work: () => Promise<T>): Promise<T> {
  const { span } = observation;
  let failure: Failure | undefined;
  try {
    const result = await (active === undefined ? work() : context.with(active, work));
    // initialize's answer is where a 2025 connection's revision is agreed: its own span says it too.
    if (isRecord(result) && typeof result["protocolVersion"] === "string")
      span.setAttribute(ATTR_MCP_PROTOCOL_VERSION, result["protocolVersion"]);
    // A tool's own failure is a result, not a JSON-RPC error: the conventions name it `tool_error`.
    if (isRecord(result) && result["isError"] === true) failure = { errorType: "tool_error", callerFault: false };
    return result;
  } catch (error) {
    failure = failureOf(error);
    throw error;
  } finally {
    end(observation, failure);
  }
}

/** How a request failed, as its span and its duration record it. */
interface Failure {
  /** `error.type`: the classified code, else the JSON-RPC code, else `_OTHER`. */
  readonly errorType: string;
  /** The JSON-RPC code of the error answer (`rpc.response.status_code`), when there is one. */
  readonly rpcCode?: number;
  /** A code that says the client's request was at fault: the span's status stays unset. */
  readonly callerFault: boolean;
  readonly message?: string;
}

/**
 * The error a request was answered with: `error.type` is its classified code (a gateway error's
 * `data.code`, such as `REQUEST_STATE_UNKNOWN`), else its JSON-RPC code; the JSON-RPC code also
 * as `rpc.response.status_code`. The codes that say the client's request was at fault leave the
 * status unset.
 */
function failureOf(error: unknown): Failure {
  const { code, data } = isRecord(error) || error instanceof Error ? (error as { code?: unknown; data?: unknown }) : {};
  const rpcCode = typeof code === "number" ? code : undefined;
  const classified = isRecord(data) && typeof data["code"] === "string" ? data["code"] : undefined;
  const errorType =
    classified ?? (rpcCode === undefined ? (typeof code === "string" ? code : "_OTHER") : String(rpcCode));
  return {
    errorType,
    ...(rpcCode === undefined ? {} : { rpcCode }),
    callerFault: rpcCode !== undefined && CALLER_FAULT_CODES.has(rpcCode),
    message: error instanceof Error ? error.message : String(error),
  };
}

/** Ends the span (its status ERROR unless the client was at fault) and records the duration with the outcome. */
function end(observation: Observation, failure: Failure | undefined): void {
  const { span, duration } = observation;
  let measured = observation.measured;
  if (failure !== undefined) {
    const outcome: Attributes = { [ATTR_ERROR_TYPE]: failure.errorType };
    if (failure.rpcCode !== undefined) outcome[ATTR_RPC_RESPONSE_STATUS_CODE] = String(failure.rpcCode);
    span.setAttributes(outcome);
    if (!failure.callerFault)
      span.setStatus(
        failure.message === undefined
          ? { code: SpanStatusCode.ERROR }
          : { code: SpanStatusCode.ERROR, message: failure.message },
      );
    measured = { ...measured, ...outcome };
  }
  span.end();
  if (duration !== undefined) recordSince(duration, observation.startedAt, measured);
}
