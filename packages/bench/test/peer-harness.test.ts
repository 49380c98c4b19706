import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleBuilds } from "../src/peers/dist-check.js";
import { RESULT_MARKER } from "../src/peers/peer-job.js";
import { formatPeerCell, formatPeerTable, type PeerTable } from "../src/peers/peer-table.js";
import { parsePeerResult } from "../src/peers/run-peer-worker.js";
import { PEER_SIDE_NAMES, sidesRunnableOn } from "../src/peers/sides.js";
import { ANCHOR_TARGETS, anchorTargetsFor } from "../src/peers/anchor-targets.js";
import { typeScriptNodeArgs } from "../src/workers/spawn-worker.js";
import { stdioPeerTargets } from "../src/scenarios/peers.js";

describe("sidesRunnableOn", () => {
  it("leaves out the peers whose current version needs Node 22 on Node 20, and keeps the baseline", () => {
    expect(sidesRunnableOn(20)).toEqual([
      "raw",
      "raw-sdk-v2",
      "floor",
      "adapter",
      "adapter-discovered",
      "adapter-sdk-v1",
      "langchain",
    ]);
    expect(sidesRunnableOn(24)).toEqual(PEER_SIDE_NAMES);
    expect(sidesRunnableOn(24, ["mastra", "adapter"])).toEqual(["raw", "adapter", "mastra"]);
  });
});

describe("anchorTargetsFor", () => {
  it("judges HTTP connect against the SDK 1.x Client on HTTP only, and the floor and the v2 Client on both", () => {
    const anchors = (transport: "stdio" | "streamable-http") =>
      anchorTargetsFor(transport).flatMap((entry) => Object.keys(entry.figures).map((key) => `${entry.anchor}:${key}`));
    expect(anchors("streamable-http")).toContain("raw:connect");
    expect(anchors("stdio")).not.toContain("raw:connect");
    for (const transport of ["stdio", "streamable-http"] as const) {
      expect(anchors(transport)).toEqual(
        expect.arrayContaining(["floor:cpu.in-flight", "floor:echo.p50", "raw-sdk-v2:throughput", "ai-sdk:list.rss"]),
      );
    }
  });

  it("names the anchor in each verdict and applies the issue's limits", () => {
    const floor = ANCHOR_TARGETS.find((entry) => entry.anchor === "floor")!;
    expect(floor.figures["cpu.in-flight"]!(30, 20, 1.5)).toEqual({ text: "≤ 1.5 × floor", pass: true });
    expect(floor.figures["cpu.in-flight"]!(31, 20, 1.55).pass).toBe(false);
    const v2 = ANCHOR_TARGETS.find((entry) => entry.anchor === "raw-sdk-v2")!;
    expect(v2.figures.throughput!(1, 1, 1.19)).toEqual({ text: "≥ 1.2 × raw-sdk-v2", pass: false });
  });
});

describe("resetPeakRss", () => {
  it("brings the peak RSS down to the current RSS once a spike is freed (Linux)", () => {
    const output = execFileSync(
      process.execPath,
      [...typeScriptNodeArgs(), "--expose-gc", fileURLToPath(new URL("fixtures/peak-rss-fixture.ts", import.meta.url))],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
    );
    const figures = JSON.parse(output) as {
      reset: boolean;
      attempts: number;
      spikeMb: number;
      peakWithSpike: number;
      peakAfterReset: number;
      current: number;
    };
    if (process.platform !== "linux") return;
    expect(figures.reset).toBe(true);
    // The fixture waits (bounded) until V8 gave the spike's pages back: without that the peak
    // would stand high whether or not the reset worked.
    expect(figures.spikeMb).toBeGreaterThan(40);
    expect(figures.peakWithSpike - figures.current, JSON.stringify(figures)).toBeGreaterThan(figures.spikeMb / 2);
    // After the reset the peak is where the process stands now, the spike no longer in it.
    expect(figures.peakAfterReset - figures.current, JSON.stringify(figures)).toBeLessThan(5);
  });
});

describe("stdioPeerTargets", () => {
  it("starts both stdio servers on the Node the sides run on (--node), not on the bench's own", () => {
    const node = "/opt/node24/bin/node";
    const env = { MARKER: "1" };
    const { target, listTarget } = stdioPeerTargets(node, ["generated-tools-server.mjs", "--tools=10"], env);
    expect(target).toMatchObject({ kind: "stdio", command: node, env });
    expect(listTarget).toEqual({
      kind: "stdio",
      command: node,
      args: ["generated-tools-server.mjs", "--tools=10"],
      env,
    });
    if (target.kind !== "stdio") throw new Error("expected a stdio target");
    expect(target.args.at(-2)).toMatch(/server-everything\/dist\/index\.js$/);
    expect(target.args.at(-1)).toBe("stdio");
  });
});

describe("parsePeerResult", () => {
  it("finds the marked line among whatever the libraries printed", () => {
    const result = { kind: "import", probe: "sdk-client", node: "v24.0.0", importMs: 12.5 };
    const stdout = `some library banner\n${RESULT_MARKER}${JSON.stringify(result)}\nbye\n`;
    expect(parsePeerResult(stdout)).toEqual(result);
    expect(parsePeerResult("no result here\n")).toBeUndefined();
  });
});

describe("formatPeerTable", () => {
  const summary = (median: number, ratio: number) => ({ median, ratio, rounds: 5 });
  const table: PeerTable = {
    transport: "stdio",
    node: "v24.22.3",
    rounds: 5,
    loadAverage: { before: [1, 2, 3], after: [1.5, 2.5, 3.5] },
    fromSource: false,
    sides: [
      { side: "raw", label: "raw SDK Client", call: "callTool" },
      { side: "adapter", label: "mcp-tool-adapter", call: "invoke" },
    ],
    leftOut: ["mastra"],
    versions: { "@modelcontextprotocol/sdk": "1.32.2" },
    rows: [
      {
        key: "cpu.sequential",
        label: "client CPU per call, sequential",
        unit: "µs",
        ratioless: false,
        cells: { raw: summary(60, 1), adapter: summary(54, 0.9) },
        perRound: [{ raw: 60, adapter: 54 }],
      },
      {
        key: "heap.growth",
        label: "heap growth",
        unit: "MB",
        ratioless: true,
        cells: { raw: summary(0.2, 1), adapter: summary(-0.1, -0.5) },
        perRound: [{ raw: 0.2, adapter: -0.1 }],
      },
    ],
    probes: { adapterPackage: summary(110, 1.1), sdkClient: summary(100, 1) },
    failures: ["round 2, mastra: boom"],
  };

  it("prints a Markdown row per figure with each side's ratio and value, the load and what was left out", () => {
    const text = formatPeerTable(table);
    expect(text).toContain("| figure | raw SDK Client | mcp-tool-adapter |");
    expect(text).toContain("| client CPU per call, sequential | 60.00 µs | 0.90× (54.00 µs) |");
    expect(text).toContain("| heap growth | 0.200 MB | -0.100 MB |");
    expect(text).toContain("load average 1.00 / 2.00 / 3.00 before, 1.50 / 2.50 / 3.50 after");
    expect(text).toContain("left out (need a newer Node): mastra");
    expect(text).toContain("FAILED round 2, mastra: boom");
    expect(text).toContain("@mcp-tool-adapter/adapter alone: 1.10× (110.0 ms)");
  });

  it("adds each side's ratio to the floor when the floor ran, and none for the floor itself", () => {
    const withFloor: PeerTable = {
      ...table,
      sides: [...table.sides, { side: "floor", label: "floor", call: "ndjson" }],
      rows: [
        {
          key: "cpu.in-flight",
          label: "client CPU per call, 50 in flight",
          unit: "µs",
          ratioless: false,
          cells: { raw: summary(60, 1), adapter: summary(30, 0.5), floor: summary(20, 0.33) },
          floorCells: { raw: summary(60, 3), adapter: summary(30, 1.5), floor: summary(20, 1) },
          perRound: [{ raw: 60, adapter: 30, floor: 20 }],
        },
      ],
    };
    const text = formatPeerTable(withFloor);
    expect(text).toContain(
      "| client CPU per call, 50 in flight | 60.00 µs, floor 3.00× | 0.50× (30.00 µs), floor 1.50× | 0.33× (20.00 µs) |",
    );
    expect(text).toContain('("floor N×") to the floor side');
  });

  it("says when the p50 and sequential CPU rows also count rounds of the sequential stage alone", () => {
    expect(formatPeerTable(table)).toContain("5 round(s); load average");
    expect(formatPeerTable({ ...table, sequentialRounds: 16 })).toContain(
      "5 round(s), the p50 and sequential CPU over 5 + 16 rounds (the sequential stage alone in 16 more processes per side); load average",
    );
  });

  it("shows a side without a usable round as n/a, never as a number", () => {
    expect(formatPeerCell({ median: Number.NaN, ratio: Number.NaN, rounds: 0 }, "ms", false, false)).toBe("n/a");
    expect(formatPeerCell(undefined, "ms", false, false)).toBe("n/a");
  });
});

describe("staleBuilds", () => {
  let root: string;

  async function writePackage(dir: string, manifest: object, files: Record<string, number>): Promise<void> {
    await mkdir(join(root, dir), { recursive: true });
    await writeFile(join(root, dir, "package.json"), JSON.stringify(manifest));
    for (const [file, mtimeSeconds] of Object.entries(files)) {
      const path = join(root, dir, file);
      await mkdir(join(path, ".."), { recursive: true });
      await writeFile(path, "x");
      await utimes(path, mtimeSeconds, mtimeSeconds);
    }
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "bench-stale-"));
    await writePackage(
      "umbrella",
      { name: "umbrella", dependencies: { leaf: "workspace:^", old: "workspace:^", other: "^1.0.0" } },
      { "src/index.ts": 1000, "dist/index.js": 2000 },
    );
    await writePackage("leaf", { name: "leaf" }, { "src/index.ts": 1000, "src/deep/a.ts": 1000 });
    await writePackage("old", { name: "old" }, { "src/index.ts": 3000, "dist/index.js": 2000 });
    await writePackage("unrelated", { name: "unrelated" }, { "src/index.ts": 1000 });
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("names the packages reached from the roots whose dist is missing or older than src", async () => {
    expect(await staleBuilds(["umbrella"], root)).toEqual(["leaf: no dist build", "old: dist is older than src"]);
    expect(await staleBuilds(["unrelated"], root)).toEqual(["unrelated: no dist build"]);
  });
});
