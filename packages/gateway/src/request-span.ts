import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";

const TRACER_NAME = "@mcp-tool-adapter/gateway";

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
 * Runs `work` inside a SERVER span for one downstream request, child of the trace context the
 * client sent in `_meta` (W3C `traceparent` / `tracestate`, read by the registered propagator), so
 * the adapter's CLIENT span for the upstream call, started in the active context, becomes its
 * child. With no tracer provider (given or registered) the spans are no-ops.
 */
export function inRequestSpan<T>(
  request: { method: string; target: string; meta: Record<string, unknown> | undefined },
  tracerProvider: TracerProvider | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const parent = request.meta === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, request.meta);
  const tracer = tracerOf(tracerProvider ?? trace.getTracerProvider());
  const span = tracer.startSpan(
    `${request.method} ${request.target}`,
    { kind: SpanKind.SERVER, attributes: { "mcp.method.name": request.method, "gen_ai.tool.name": request.target } },
    parent,
  );
  // No tracer provider (a no-op span, no trace id) and no trace context to pass on: skip the context
  // switch, which cost more than the rest of the span work per forwarded call, and hand back the
  // work's own promise (not async: no wrapper promise and its turns per call). A span a sampler
  // dropped has a trace id and still becomes the parent, so its children are dropped with it.
  if (!isSpanContextValid(span.spanContext()) && parent === ROOT_CONTEXT) return untraced(work);
  return inSpan(span, parent, work);
}

/** `work()`, a synchronous throw turned into a rejection as an async function would. */
function untraced<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

async function inSpan<T>(span: Span, parent: Context, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
