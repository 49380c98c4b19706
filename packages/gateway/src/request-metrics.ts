import { metrics, type Attributes, type Histogram, type MeterProvider } from "@opentelemetry/api";
import {
  MCP_DURATION_BUCKETS,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
  otelRegistered,
} from "@mcp-tool-adapter/core";

const METER_NAME = "@mcp-tool-adapter/gateway";

/** The gateway's two MCP duration histograms, made from one meter provider. */
interface ServerHistograms {
  readonly provider: MeterProvider;
  readonly operation: Histogram;
  readonly session: Histogram;
}

/**
 * The histograms of the provider last asked, kept: the global provider is the same object until
 * another is registered (or `metrics.disable()` puts the no-op one back), so keying on it never
 * keeps a stale histogram.
 */
let last: ServerHistograms | undefined;

/** Whether anything can record the gateway's metrics: a provider given, or one registered globally. */
export function meteringOn(meterProvider: MeterProvider | undefined): boolean {
  return meterProvider !== undefined || otelRegistered(["metrics"]);
}

/**
 * `mcp.server.operation.duration` and `mcp.server.session.duration` of `meterProvider` (default
 * the global one), as the conventions define them: seconds, their bucket boundaries. Undefined
 * when nothing could record them, so an unobserved gateway makes nothing.
 */
export function serverHistograms(meterProvider: MeterProvider | undefined): ServerHistograms | undefined {
  if (!meteringOn(meterProvider)) return undefined;
  const provider = meterProvider ?? metrics.getMeterProvider();
  if (last?.provider === provider) return last;
  const meter = provider.getMeter(METER_NAME);
  const advice = { explicitBucketBoundaries: [...MCP_DURATION_BUCKETS] };
  last = {
    provider,
    operation: meter.createHistogram(METRIC_MCP_SERVER_OPERATION_DURATION, {
      description: "MCP request duration as observed by the gateway, from receiving it until its answer is sent.",
      unit: "s",
      advice,
    }),
    session: meter.createHistogram(METRIC_MCP_SERVER_SESSION_DURATION, {
      description: "Duration of a downstream client's MCP session with the gateway.",
      unit: "s",
      advice,
    }),
  };
  return last;
}

/** Records `startedAt` (performance.now()) until now, in seconds, on `histogram`. */
export function recordSince(histogram: Histogram, startedAt: number, attributes: Attributes): void {
  histogram.record((performance.now() - startedAt) / 1000, attributes);
}
