import { describe, expect, it } from "vitest";
import { BenchUsageError, DEFAULT_SETTINGS, parseBenchArgs, QUICK_SETTINGS, SCENARIO_NAMES } from "../src/settings.js";

describe("parseBenchArgs", () => {
  it("runs every scenario with the default settings when given nothing", () => {
    expect(parseBenchArgs([], "/out.json")).toEqual({
      settings: DEFAULT_SETTINGS,
      scenarios: SCENARIO_NAMES,
      calibrate: false,
      outFile: "/out.json",
    });
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

  it.each([["--fast"], ["--only="], ["--only=stdio,nope"], ["--out="]])("rejects %s with the usage", (arg) => {
    expect(() => parseBenchArgs([arg], "/out.json")).toThrow(BenchUsageError);
    expect(() => parseBenchArgs([arg], "/out.json")).toThrow(/Usage: pnpm bench|--only takes/);
  });
});
