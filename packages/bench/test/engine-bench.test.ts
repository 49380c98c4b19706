import { describe, expect, it } from "vitest";
import { DEFAULT_ENGINE_SIDES, engineSidesToRun } from "../src/peers/engine-sides.js";
import { PEER_FIGURE_KINDS } from "../src/peers/figure-kinds.js";
import type { PeerJob, PeerResult, PeerSideResult } from "../src/peers/peer-job.js";
import { figureRounds, runPeerRounds } from "../src/peers/peer-rounds.js";
import { formatPeerTable, type PeerTable } from "../src/peers/peer-table.js";
import {
  BenchUsageError,
  DEFAULT_SCENARIOS,
  DEFAULT_SETTINGS,
  parseBenchArgs,
  QUICK_SETTINGS,
} from "../src/settings.js";

function sideResult(side: PeerSideResult["side"], cpu: number): PeerSideResult {
  return {
    kind: "side",
    side,
    node: "v20.20.2",
    importMs: 10,
    connectMs: 20,
    heapAfterWarmupMb: 12,
    heapAfterCallsMb: 12.5,
    heapAfterRepeatMb: 12.5,
    p50Ms: 0.3,
    p99Ms: 0.9,
    sequentialCpuMicros: cpu,
    concurrentCpuMicros: cpu / 2,
    callsPerSecond: 3000,
  };
}

describe("runPeerRounds", () => {
  it("runs every runner once per round in the rotated order, and keeps going past a failed run", async () => {
    const order: string[] = [];
    const outcome = await runPeerRounds({
      runners: ["raw-v2", "engine-2026", "default-engine"] as const,
      rounds: 3,
      jobFor: (side): PeerJob => ({
        kind: "side",
        side,
        target: { kind: "streamable-http", url: "http://127.0.0.1:1/mcp" },
        warmupCalls: 1,
        sequentialCalls: 1,
        concurrentCalls: 1,
        inFlight: 1,
      }),
      run: (job): Promise<PeerResult> => {
        const side = job.kind === "side" ? job.side : "raw";
        order.push(side);
        if (order.length === 5) return Promise.reject(new Error("server start timed out"));
        return Promise.resolve(sideResult(side, order.length));
      },
      starting: () => undefined,
    });
    expect(order).toEqual([
      ...["raw-v2", "engine-2026", "default-engine"],
      ...["engine-2026", "default-engine", "raw-v2"],
      ...["default-engine", "raw-v2", "engine-2026"],
    ]);
    expect(outcome.failures).toEqual(["round 2, default-engine: server start timed out"]);
    expect(Object.keys(outcome.rounds[1]!).sort()).toEqual(["engine-2026", "raw-v2"]);
    const cpu = PEER_FIGURE_KINDS.find((kind) => kind.key === "cpu.sequential")!;
    expect(figureRounds(outcome.rounds, cpu)).toEqual([
      { "raw-v2": 1, "engine-2026": 2, "default-engine": 3 },
      { "engine-2026": 4, "raw-v2": 6 },
      { "default-engine": 7, "raw-v2": 8, "engine-2026": 9 },
    ]);
  });

  it("reads the sequential figures, and only those, from a run of the sequential stage alone", () => {
    const rounds = [
      { raw: sideResult("raw", 50), floor: sideResult("floor", 40) },
      {
        raw: { kind: "sequential", side: "raw", node: "v24", p50Ms: 0.25, p99Ms: 0.9, sequentialCpuMicros: 70 },
        floor: { kind: "sequential", side: "floor", node: "v24", p50Ms: 0.2, p99Ms: 0.8, sequentialCpuMicros: 45 },
      },
    ] satisfies Partial<Record<string, PeerResult>>[];
    const kind = (key: string) => PEER_FIGURE_KINDS.find((candidate) => candidate.key === key)!;
    expect(figureRounds<string>(rounds, kind("echo.p50"))).toEqual([
      { raw: 0.3, floor: 0.3 },
      { raw: 0.25, floor: 0.2 },
    ]);
    expect(figureRounds<string>(rounds, kind("cpu.sequential"))).toEqual([
      { raw: 50, floor: 40 },
      { raw: 70, floor: 45 },
    ]);
    // Figures of the later stages have nothing from that round, so it does not count for them.
    expect(figureRounds<string>(rounds, kind("cpu.in-flight"))).toEqual([{ raw: 25, floor: 20 }, {}]);
    expect(figureRounds<string>(rounds, kind("connect"))).toEqual([{ raw: 20, floor: 20 }, {}]);
  });

  it("reads no side figure from an import probe's result", () => {
    const p50 = PEER_FIGURE_KINDS.find((kind) => kind.key === "echo.p50")!;
    const rounds = [
      { raw: sideResult("raw", 1), "sdk-client": { kind: "import", probe: "sdk-client", node: "v20", importMs: 5 } },
    ];
    expect(figureRounds<string>(rounds as never, p50)).toEqual([{ raw: 0.3 }]);
  });
});

describe("the engine comparison's options", () => {
  it("runs only when asked (--only=engines: both transports), with the three sides of issue 21 and the raw v2 baseline always", () => {
    expect(DEFAULT_SCENARIOS.some((name) => name.startsWith("engines"))).toBe(false);
    expect(parseBenchArgs(["--only=engines"], "/out.json").scenarios).toEqual(["engines-stdio", "engines-http"]);
    expect(DEFAULT_ENGINE_SIDES).toEqual(["raw-v2", "engine-2026", "default-engine"]);
    expect(engineSidesToRun()).toEqual(["raw-v2", "engine-2026", "default-engine"]);
    expect(engineSidesToRun(["engine-2026-2025", "engine-2026"])).toEqual([
      "raw-v2",
      "engine-2026",
      "engine-2026-2025",
    ]);
  });

  it("takes --engine-sides (in table order), --engine-rounds and --engine-calls (both transports)", () => {
    const options = parseBenchArgs(
      [
        "--quick",
        "--only=engines-http",
        "--engine-sides=raw-v2-2025,engine-2026",
        "--engine-rounds=4",
        "--engine-calls=10,20,30",
      ],
      "/out.json",
    );
    expect(options.scenarios).toEqual(["engines-http"]);
    expect(options.peers).toEqual({ engineSides: ["engine-2026", "raw-v2-2025"], fromSource: false });
    const calls = { warmup: 10, sequential: 20, concurrent: 30 };
    expect(options.settings).toEqual({
      ...QUICK_SETTINGS,
      engineRounds: 4,
      engineCalls: { stdio: calls, http: calls },
    });
    expect(DEFAULT_SETTINGS.engineCalls.stdio.concurrent).toBeGreaterThan(DEFAULT_SETTINGS.engineCalls.http.concurrent);
  });

  it.each([
    ["--engine-sides=engine-2026,langchain", /--engine-sides takes .*raw-v2, engine-2026, default-engine/],
    ["--engine-rounds=0", /--engine-rounds takes a positive integer/],
    ["--engine-calls=1,2", /--engine-calls takes 3 comma-separated positive integers/],
  ])("rejects %s, saying what it takes", (arg, message) => {
    expect(() => parseBenchArgs([arg], "/out.json")).toThrow(BenchUsageError);
    expect(() => parseBenchArgs([arg], "/out.json")).toThrow(message);
  });
});

describe("formatPeerTable for the engine comparison", () => {
  it("names the comparison, shows the baseline's values bare and says what the ratios are to", () => {
    const summary = (median: number, ratio: number) => ({ median, ratio, rounds: 3 });
    const table: PeerTable = {
      title: "engines",
      transport: "stdio",
      node: "v20.20.2",
      rounds: 3,
      loadAverage: { before: [1, 1, 1], after: [2, 2, 2] },
      fromSource: false,
      baseline: "raw-v2",
      sides: [
        { side: "raw-v2", label: "raw v2 Client, 2026-07-28", call: "callTool" },
        { side: "engine-2026", label: "adapter + engine-2026, 2026-07-28", call: "invoke" },
      ],
      leftOut: [],
      versions: { "@modelcontextprotocol/client": "2.4.0" },
      rows: [
        {
          key: "cpu.sequential",
          label: "client CPU per call, sequential",
          unit: "µs",
          ratioless: false,
          cells: { "raw-v2": summary(100, 1), "engine-2026": summary(104, 1.04) },
          perRound: [],
        },
      ],
      failures: [],
    };
    const text = formatPeerTable(table);
    expect(text).toContain("engines over stdio, v20.20.2, 3 round(s)");
    expect(text).toContain("| client CPU per call, sequential | 100.0 µs | 1.04× (104.0 µs) |");
    expect(text).toContain("ratios: median of the per-round ratios to raw v2 Client, 2026-07-28");
    expect(text).not.toContain("import of @mcp-tool-adapter/adapter alone");
  });
});
