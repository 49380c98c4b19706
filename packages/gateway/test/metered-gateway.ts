import { afterAll, beforeAll, expect } from "vitest";
import { MeterProvider, MetricReader, type HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { createGateway, listenHttp, type Gateway, type GatewayHttpServer } from "../src/index.js";

/** A reader the test collects from on demand. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The gateway a metrics test file reads, with the real OTel SDK's meter provider behind it. */
export interface MeteredGateway {
  readonly meterProvider: MeterProvider;
  /** Started before the file's tests (server-everything over stdio), closed after them. */
  readonly gateway: Gateway;
  /** The gateway's HTTP listener on 127.0.0.1. */
  readonly http: GatewayHttpServer;
  /** The gateway's histogram `name` as recorded so far; undefined when nothing was recorded. */
  histogram(name: string): Promise<HistogramMetricData | undefined>;
}

/**
 * Sets up, for the calling test file, a gateway in front of server-everything over stdio whose
 * metrics go to a meter provider the test collects from, listening on HTTP; all of it is taken
 * down after the file's tests.
 */
export function meteredEverythingGateway(): MeteredGateway {
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  let gateway: Gateway | undefined;
  let http: GatewayHttpServer | undefined;
  beforeAll(async () => {
    gateway = createGateway({
      servers: { everything: { transport: "stdio", ...everythingStdioServer() } },
      serverSet: { telemetry: { meterProvider } },
    });
    expect((await gateway.start()).failed).toEqual([]);
    http = await listenHttp(gateway, {});
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await gateway?.close();
    await meterProvider.shutdown();
  }, 30_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("meteredEverythingGateway: read before its beforeAll ran");
    return value;
  };
  return {
    meterProvider,
    get gateway() {
      return started(gateway);
    },
    get http() {
      return started(http);
    },
    async histogram(name) {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .filter((scope) => scope.scope.name === "@mcp-tool-adapter/gateway")
        .flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === name) as HistogramMetricData | undefined;
    },
  };
}
