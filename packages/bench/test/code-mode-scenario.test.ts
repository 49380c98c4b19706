import { expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import type { BenchContext } from "../src/context.js";
import { runCodeModeScenario } from "../src/scenarios/code-mode.js";
import { parseBenchArgs } from "../src/settings.js";
import { WarningRecorder } from "../src/warnings.js";

describe("the code-mode scenario (issue 35's measured saving)", () => {
  it("is asked for by name, and both sides reach the same summary with fewer requests and input tokens in code mode", async () => {
    const options = parseBenchArgs(["--only=code-mode"], "/out.json");
    expect(options.scenarios).toEqual(["code-mode"]);
    const context: BenchContext = {
      settings: options.settings,
      warnings: new WarningRecorder(),
      calibrate: false,
      peers: { fromSource: true },
      progress: () => undefined,
    };
    const figures = await runCodeModeScenario(context);
    const value = (id: string): number =>
      figures.find((figure) => figure.id === `code-mode.${id}`)?.value ?? Number.NaN;
    expect(value("direct.round-trips")).toBe(5);
    expect(value("code.round-trips")).toBe(2);
    expect(value("code.input-tokens")).toBeLessThan(value("direct.input-tokens"));
    expect(value("input-token-ratio")).toBeLessThan(1);
    await expectNoLeakedProcesses();
  }, 120_000);
});
