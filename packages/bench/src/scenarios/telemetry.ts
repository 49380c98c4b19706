import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createInMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import { MCPToolAdapter, type MCPToolAdapterOptions } from "mcp-tool-adapter";
import type { BenchContext } from "../context.js";
import { compared, ratioAtMost, type Figure } from "../figures.js";
import { median } from "../stats.js";

const GROUP = "OpenTelemetry cost (issue 20)";
/** Rounds and calls per round per side; `--quick` (the smoke test) runs a fraction. */
const FULL = { rounds: 15, calls: 400 };
const QUICK = { rounds: 3, calls: 40 };
/** "Within the noise of no instrumentation": the paired median ratio may move this much. */
const NO_PROVIDER_RATIO_LIMIT = 1.05;

type Side = "off" | "noProvider" | "provider";

/**
 * The same in-process echo calls through three adapters: instrumentation off (`telemetry: false`),
 * on with no OpenTelemetry provider registered, and on with an SDK tracer provider (in-memory
 * exporter, every span kept; metrics go to the no-op global meter). Rounds interleave the sides so drift hits all three.
 */
export async function runTelemetryScenario(context: BenchContext): Promise<Figure[]> {
  const { rounds: ROUNDS, calls: CALLS_PER_ROUND } = context.settings.name === "quick" ? QUICK : FULL;
  context.progress(`${GROUP}: ${ROUNDS} rounds × ${CALLS_PER_ROUND} calls per side`);
  const server = createInMemoryTestServer({ tools: [{ name: "echo", annotations: { readOnlyHint: true } }] });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const options: Record<Side, MCPToolAdapterOptions> = {
    off: { telemetry: false },
    noProvider: {},
    provider: { telemetry: { tracerProvider } },
  };
  const adapters = Object.fromEntries(
    (Object.keys(options) as Side[]).map((side) => [
      side,
      new MCPToolAdapter(
        { name: `bench-${side}`, transport: "stdio", command: "unused" },
        {
          transport: () => server.connect(),
          ...options[side],
        },
      ),
    ]),
  ) as Record<Side, MCPToolAdapter>;
  try {
    for (const adapter of Object.values(adapters)) {
      await adapter.connect();
      await runCalls(adapter, CALLS_PER_ROUND); // warm-up: JIT and catalog
    }
    const perCallUs: Record<Side, number[]> = { off: [], noProvider: [], provider: [] };
    const order: Side[] = ["off", "noProvider", "provider"];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Rotate who goes first so no side always runs on a warmer or colder machine.
      for (const side of [...order.slice(round % 3), ...order.slice(0, round % 3)]) {
        const started = performance.now();
        await runCalls(adapters[side], CALLS_PER_ROUND);
        perCallUs[side].push(((performance.now() - started) * 1000) / CALLS_PER_ROUND);
      }
      exporter.reset();
    }
    const pairedRatio = (side: Side) => median(perCallUs[side].map((us, i) => us / (perCallUs.off[i] ?? us)));
    const note = `in-process echo calls; median of ${ROUNDS} rounds × ${CALLS_PER_ROUND} sequential calls, ratio = the median of the per-round ratios to telemetry: false`;
    return [
      compared(
        {
          id: "telemetry.no-provider.per-call",
          group: GROUP,
          label: "call, instrumented, no provider registered vs telemetry: false",
          unit: "µs",
          adapter: median(perCallUs.noProvider),
          raw: median(perCallUs.off),
          ratio: pairedRatio("noProvider"),
          note,
        },
        ratioAtMost(NO_PROVIDER_RATIO_LIMIT),
      ),
      compared({
        id: "telemetry.sdk-provider.per-call",
        group: GROUP,
        label: "call, SDK tracer provider (in-memory exporter) vs telemetry: false",
        unit: "µs",
        adapter: median(perCallUs.provider),
        raw: median(perCallUs.off),
        ratio: pairedRatio("provider"),
        note,
      }),
    ];
  } finally {
    for (const adapter of Object.values(adapters)) await adapter.disconnect();
    await server.close();
    await tracerProvider.shutdown();
  }
}

async function runCalls(adapter: MCPToolAdapter, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const result = await adapter.invoke("echo", { i });
    if (!result.success) throw new Error(`telemetry bench: a call failed: ${result.error ?? "?"}`);
  }
}
