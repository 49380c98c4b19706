import { describe, expect, it } from "vitest";
import {
  BenchUsageError,
  DEFAULT_SCENARIOS,
  DEFAULT_SETTINGS,
  parseBenchArgs,
  QUICK_SETTINGS,
} from "../src/settings.js";

describe("parseBenchArgs", () => {
  it("runs every scenario but the peer comparison with the default settings when given nothing", () => {
    expect(parseBenchArgs([], "/out.json")).toEqual({
      settings: DEFAULT_SETTINGS,
      scenarios: DEFAULT_SCENARIOS,
      calibrate: false,
      outFile: "/out.json",
      peers: { fromSource: false },
    });
    expect(DEFAULT_SCENARIOS).toEqual([
      "leaf",
      "model-tools",
      "cold-conversion",
      "telemetry",
      "stdio",
      "http",
      "many-tools",
      "heap",
      "server-set",
    ]);
  });

  it("runs the peer comparison only when asked, with issue 17's method by default", () => {
    expect(parseBenchArgs(["--only=peers"], "/out.json").scenarios).toEqual(["peers-stdio", "peers-http"]);
    expect(parseBenchArgs(["--only=peers-http,leaf"], "/out.json").scenarios).toEqual(["leaf", "peers-http"]);
    // The gateway's overhead likewise, both transports or one.
    expect(parseBenchArgs(["--only=gateway"], "/out.json").scenarios).toEqual(["gateway-stdio", "gateway-http"]);
    expect(parseBenchArgs(["--only=gateway-stdio"], "/out.json").scenarios).toEqual(["gateway-stdio"]);
    expect(DEFAULT_SETTINGS).toMatchObject({
      peerRounds: 5,
      peerWarmupCalls: 200,
      peerSequentialCalls: 2_000,
      peerConcurrentCalls: 20_000,
      peerInFlight: 50,
      peerListTools: 5_000,
      peerSequentialRounds: { stdio: 16, http: 0 },
    });
  });

  it("takes the extra rounds of the sequential stage per transport, none allowed", () => {
    const options = parseBenchArgs(["--only=peers", "--peer-sequential-rounds=0,3"], "/out.json");
    expect(options.settings.peerSequentialRounds).toEqual({ stdio: 0, http: 3 });
    expect(QUICK_SETTINGS.peerSequentialRounds.stdio).toBeGreaterThan(0);
  });

  it("takes the peer options --node, --sides (in table order), --peer-rounds, --peer-calls and --from-source", () => {
    const options = parseBenchArgs(
      [
        "--quick",
        "--only=peers-stdio",
        "--node=/opt/node24/bin/node",
        "--sides=mastra,adapter",
        "--peer-rounds=3",
        "--peer-calls=100,1_000,5000",
        "--from-source",
      ],
      "/out.json",
    );
    expect(options.peers).toEqual({ node: "/opt/node24/bin/node", sides: ["adapter", "mastra"], fromSource: true });
    expect(options.settings).toEqual({
      ...QUICK_SETTINGS,
      peerRounds: 3,
      peerWarmupCalls: 100,
      peerSequentialCalls: 1_000,
      peerConcurrentCalls: 5_000,
    });
  });

  it("runs the gateway bench on one transport or both, with --gateway-calls in place of its own plan", () => {
    expect(parseBenchArgs(["--only=gateway"], "/out.json").scenarios).toEqual(["gateway-stdio", "gateway-http"]);
    const options = parseBenchArgs(["--only=gateway-http", "--gateway-calls=3_000,600,1500"], "/out.json");
    expect(options.scenarios).toEqual(["gateway-http"]);
    expect(options.settings).toEqual({
      ...DEFAULT_SETTINGS,
      gatewayCalls: { warmup: 3_000, sequential: 600, concurrent: 1_500 },
    });
    expect(DEFAULT_SETTINGS.gatewayCalls).toBeUndefined();
    expect(() => parseBenchArgs(["--gateway-calls=300,600"], "/out.json")).toThrow(BenchUsageError);
  });

  it("meets the issue's minimums by default", () => {
    expect(DEFAULT_SETTINGS.latencyCalls).toBeGreaterThanOrEqual(2_000);
    expect(DEFAULT_SETTINGS.inFlight).toBe(50);
    expect(DEFAULT_SETTINGS.manyTools).toBe(5_000);
    expect(DEFAULT_SETTINGS.manyToolsPageSize).toBe(100);
    expect(DEFAULT_SETTINGS.heapInvokes).toBe(100_000);
    expect(DEFAULT_SETTINGS.compileSchemas).toBe(5_000);
    expect(DEFAULT_SETTINGS.modelToolsTools).toBe(5_000);
    expect([DEFAULT_SETTINGS.registrySmall, DEFAULT_SETTINGS.registryLarge]).toEqual([100, 10_000]);
  });

  it("takes --quick, --only (in canonical order) and --out, and ignores pnpm's --", () => {
    const options = parseBenchArgs(["--", "--quick", "--only=heap,stdio", "--out=/tmp/b.json"], "/out.json");
    expect(options).toEqual({
      settings: QUICK_SETTINGS,
      scenarios: ["stdio", "heap"],
      calibrate: false,
      outFile: "/tmp/b.json",
      peers: { fromSource: false },
    });
  });

  it("--calibrate runs the side-by-side wall-time scenarios only, and refuses others named in --only", () => {
    expect(parseBenchArgs(["--calibrate"], "/out.json")).toMatchObject({
      scenarios: ["stdio", "http"],
      calibrate: true,
    });
    expect(parseBenchArgs(["--calibrate", "--only=http"], "/out.json")).toMatchObject({
      scenarios: ["http"],
      calibrate: true,
    });
    expect(() => parseBenchArgs(["--calibrate", "--only=stdio,heap"], "/out.json")).toThrow(
      /--calibrate .* drop heap from --only/,
    );
  });

  it.each([["--fast"], ["--only="], ["--only=stdio,nope"], ["--out="], ["--node="]])(
    "rejects %s with the usage",
    (arg) => {
      expect(() => parseBenchArgs([arg], "/out.json")).toThrow(BenchUsageError);
      expect(() => parseBenchArgs([arg], "/out.json")).toThrow(/Usage: pnpm bench|--only takes/);
    },
  );

  it.each([
    ["--sides=adapter,crewai", /--sides takes .*raw, raw-sdk-v2, floor, adapter, adapter-discovered/],
    ["--sides=", /--sides takes/],
    ["--peer-rounds=0", /--peer-rounds takes a positive integer; got "0"/],
    ["--peer-calls=1,2", /--peer-calls takes 3 comma-separated positive integers; got "1,2"/],
    ["--peer-calls=1,2,x", /--peer-calls takes 3/],
    ["--peer-sequential-rounds=4", /--peer-sequential-rounds takes 2 comma-separated non-negative integers; got "4"/],
    ["--peer-sequential-rounds=-1,0", /--peer-sequential-rounds takes 2 comma-separated non-negative/],
  ])("rejects %s, saying what it takes", (arg, message) => {
    expect(() => parseBenchArgs([arg], "/out.json")).toThrow(BenchUsageError);
    expect(() => parseBenchArgs([arg], "/out.json")).toThrow(message);
  });
});
