import { beforeAll, describe, expect, it } from "vitest";
import {
  isToleratedWarning,
  listClientScenarios,
  runClientScenario,
  SCENARIO_CLIENTS,
  SUITES,
  type SuiteName,
} from "../src/index.js";

// The suite calls fs.globSync (Node 22) at start, so it runs on CI's Node 24 leg only.
const nodeMajor = Number(process.versions.node.split(".")[0]);
// Generous: the suite starts our client once per scenario (and an auth scenario runs a login and a session).
export const SCENARIO_TIMEOUT_MS = 90_000;

/** Every client scenario of one run of the suite, against our client; one vitest file per run. */
export function describeSuite(name: SuiteName, mustOffer: readonly string[]): void {
  const suite = SUITES[name];
  describe.skipIf(nodeMajor < 22)(`the official MCP conformance suite (${name}), client scenarios`, () => {
    let offered: string[] = [];
    beforeAll(async () => {
      offered = await listClientScenarios({ suite: name });
    });

    it("plays exactly the client scenarios the installed suite offers, auth ones included", () => {
      for (const scenario of mustOffer) expect(offered).toContain(scenario);
      expect([...offered].sort()).toEqual([...suite.scenarios].sort());
      expect(suite.scenarios.filter((scenario) => SCENARIO_CLIENTS[scenario] === undefined)).toEqual([]);
    });

    it("gives a reason for every expected failure, and names only scenarios we play", () => {
      for (const [scenario, reason] of Object.entries(suite.expectedFailures)) {
        expect(suite.scenarios, scenario).toContain(scenario);
        expect(reason.trim().length, `reason for ${scenario}`).toBeGreaterThan(20);
      }
      // A scenario left out of the run is an expected failure with the same reason as one that runs.
      for (const [scenario, representative] of Object.entries(suite.representedBy)) {
        expect(suite.representedBy[representative], scenario).toBeUndefined();
        expect(suite.expectedFailures[scenario], scenario).toBe(suite.expectedFailures[representative]);
      }
    });

    for (const scenario of suite.scenarios.filter((name) => suite.representedBy[name] === undefined)) {
      const expectedFailure = suite.expectedFailures[scenario];
      // Side by side (vitest's maxConcurrency, 5): each scenario mostly waits on two processes.
      it.concurrent(
        `${scenario}: ${expectedFailure === undefined ? "passes" : "fails as expected"}`,
        async () => {
          const verdict = await runClientScenario(scenario, { suite: name, timeoutMs: SCENARIO_TIMEOUT_MS - 10_000 });
          const failedChecks = verdict.checks.filter(
            (check) => check.status === "FAILURE" || (check.status === "WARNING" && !isToleratedWarning(check)),
          );
          const explanation = `${JSON.stringify(failedChecks, null, 2)}\n${verdict.log}`;
          expect(verdict.passed, explanation).toBe(expectedFailure === undefined);
        },
        SCENARIO_TIMEOUT_MS,
      );
    }
  });
}
