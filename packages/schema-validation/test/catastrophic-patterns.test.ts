import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DIALECTS, FAMILY, type Outcome } from "./fixtures/catastrophic-family.js";

const CHILD_SCRIPT = fileURLToPath(new URL("fixtures/catastrophic-patterns.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
// Ceilings for a hang, not speed targets (those live in `pnpm bench`): a backtracking engine needs
// years for any of these inputs, the linear one milliseconds, and the machine may be loaded.
const KILL_AFTER_MS = 60_000;
const PER_VALIDATION_CEILING_MS = 1_000;

interface ChildRun {
  outcomes: Outcome[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runChild(): Promise<ChildRun> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@mcp-tool-adapter/source", CHILD_SCRIPT], {
    cwd: PACKAGE_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      const outcomes = stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Outcome);
      resolve({ outcomes, code, signal, stderr });
    });
  });
}

function expectedErrors(outcome: Outcome): Outcome["errors"] {
  const patternIssue = { path: "", keyword: "pattern", message: `must match pattern "${outcome.pattern}"` };
  if (outcome.keyword === "pattern") return outcome.input === "match" ? [] : [patternIssue];
  if (outcome.keyword === "propertyNames") {
    return outcome.input === "match"
      ? []
      : [patternIssue, { path: "", keyword: "propertyNames", message: "property name must be valid" }];
  }
  // A key the pattern matches has its value checked; any other key is an additional property.
  return outcome.input === "match"
    ? [{ path: "/<input>", keyword: "type", message: "must be string" }]
    : [{ path: "", keyword: "additionalProperties", message: "must NOT have additional properties: '<input>'" }];
}

describe("a server's schema cannot stall validation", () => {
  it(
    "validates long near-miss inputs against catastrophic-backtracking patterns quickly, with the usual messages",
    async () => {
      const { outcomes, code, signal, stderr } = await runChild();
      expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: "" });
      expect(outcomes).toHaveLength(DIALECTS.length * FAMILY.length * 3 * 2);
      for (const outcome of outcomes) {
        const where = `${outcome.keyword} ${JSON.stringify(outcome.pattern)} ${outcome.input} (${outcome.dialect})`;
        expect(outcome.ms, where).toBeLessThan(PER_VALIDATION_CEILING_MS);
        expect(outcome.errors, where).toEqual(expectedErrors(outcome));
        expect(outcome.valid, where).toBe(outcome.errors.length === 0);
      }
    },
    KILL_AFTER_MS + 10_000,
  );
});
