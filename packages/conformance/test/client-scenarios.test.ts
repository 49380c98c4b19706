import { beforeAll, describe, expect, it } from "vitest";
import {
  EXPECTED_FAILURES,
  isToleratedWarning,
  listClientScenarios,
  runClientScenario,
  SCENARIO_CLIENTS,
} from "../src/index.js";

// The suite calls fs.globSync (Node 22) at start, so it runs on CI's Node 24 leg only.
const nodeMajor = Number(process.versions.node.split(".")[0]);
// Generous: the suite starts our client from TypeScript source once per scenario (and an auth
// scenario runs a login and a session).
const SCENARIO_TIMEOUT_MS = 90_000;

describe.skipIf(nodeMajor < 22)("the official MCP conformance suite, client scenarios", () => {
  let offered: string[] = [];
  beforeAll(async () => {
    offered = await listClientScenarios();
  });

  it("has a client for every client scenario the installed suite offers, auth ones included", () => {
    expect(offered).toContain("initialize");
    expect(offered).toContain("auth/metadata-default");
    const missing = offered.filter((name) => SCENARIO_CLIENTS[name] === undefined);
    expect(missing).toEqual([]);
  });

  it("gives a reason for every expected failure, and names only scenarios we play", () => {
    for (const [scenario, reason] of Object.entries(EXPECTED_FAILURES)) {
      expect(SCENARIO_CLIENTS[scenario], scenario).toBeDefined();
      expect(reason.trim().length, `reason for ${scenario}`).toBeGreaterThan(20);
    }
  });

  for (const scenario of Object.keys(SCENARIO_CLIENTS)) {
    const expectedFailure = EXPECTED_FAILURES[scenario];
    // Side by side (vitest's maxConcurrency, 5): each scenario mostly waits on two processes.
    it.concurrent(
      `${scenario}: ${expectedFailure === undefined ? "passes" : "fails as expected"}`,
      async () => {
        const verdict = await runClientScenario(scenario, { timeoutMs: SCENARIO_TIMEOUT_MS - 10_000 });
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
