import { getEventListeners, setMaxListeners } from "node:events";
import { listDescendantProcesses } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { MCPNotConnectedError, type MCPToolErrorKind } from "../../src/index.js";
import { collectGarbage, connectWatched, hostileAdapter, useReliabilityChecks, watchServerGroups } from "./support.js";

useReliabilityChecks();

const TOTAL_CALLS = 10_000;
const IN_FLIGHT = 200;
/** The server is SIGKILLed when this many calls have settled. */
const KILL_AFTER_SETTLED = [3_000, 6_500];
/** Process events the transports may listen on for host-exit cleanup. */
const PROCESS_EVENTS = [
  "exit",
  "SIGINT",
  "SIGTERM",
  "SIGHUP",
  "beforeExit",
  "uncaughtException",
  "unhandledRejection",
] as const;

function processListenerCounts(): Record<string, number> {
  return Object.fromEntries(PROCESS_EVENTS.map((event) => [event, process.listenerCount(event)]));
}

/** SIGKILLs the running hostile server; undefined when none is running right now. */
function killServer(): number | undefined {
  const server = listDescendantProcesses().find((p) => p.cmdline.includes("hostile-server.mjs"));
  if (server === undefined) return undefined;
  process.kill(server.pid, "SIGKILL");
  return server.pid;
}

/** The only failure a dead server may cause: a lost connection (a write to its closed pipe included). */
function isConnectionFailure(kind: MCPToolErrorKind | undefined): boolean {
  return kind === "connection_lost";
}

describe("stress: many calls while the server dies and comes back", () => {
  it(`${TOTAL_CALLS} invokes, ${IN_FLIGHT} in flight, two server kills: every call settles and is accounted for`, async () => {
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const listenersBefore = processListenerCounts();

    const adapter = hostileAdapter();
    await connectWatched(adapter);
    await adapter.discoverTools();
    // One signal shared by every call: the adapter must remove its abort listener each time.
    const shared = new AbortController();
    // Every call in flight listens on it at once; that is expected, not a leak.
    setMaxListeners(IN_FLIGHT + 10, shared.signal);

    let started = 0;
    let settled = 0;
    let successes = 0;
    let mismatched = 0;
    let notConnected = 0;
    const failures = new Map<MCPToolErrorKind, number>();
    const unclassified: unknown[] = [];
    const unexpectedFailures: (string | null)[] = [];
    const outcomes: string[] = [];
    const killed: number[] = [];
    let reconnects = 0;
    let reconnecting: Promise<void> | undefined;

    const ensureConnected = (): Promise<void> => {
      if (adapter.isConnected) return Promise.resolve();
      reconnecting ??= adapter
        .reconnect({ timeoutMs: 30_000 })
        .then(() => {
          reconnects += 1;
          watchServerGroups();
        })
        .finally(() => {
          reconnecting = undefined;
        });
      return reconnecting;
    };

    const afterSettled = (outcome: string): void => {
      outcomes.push(outcome);
      settled += 1;
      if (
        killed.length < KILL_AFTER_SETTLED.length &&
        settled >= KILL_AFTER_SETTLED[killed.length]! &&
        outcome === "success"
      ) {
        const pid = killServer();
        if (pid !== undefined) killed.push(pid);
      }
    };

    const worker = async (): Promise<void> => {
      while (started < TOTAL_CALLS) {
        const i = started++;
        let outcome = "unclassified";
        try {
          const result = await adapter.invoke("echo", { i }, { signal: shared.signal, timeoutMs: 30_000 });
          outcome = result.errorKind ?? "success";
          if (result.success) {
            successes += 1;
            const text = (result.data?.content[0] as { text?: string } | undefined)?.text;
            if (text !== JSON.stringify({ i })) mismatched += 1;
          } else if (result.errorKind === undefined) {
            unclassified.push(result);
          } else {
            failures.set(result.errorKind, (failures.get(result.errorKind) ?? 0) + 1);
            if (!isConnectionFailure(result.errorKind)) unexpectedFailures.push(result.error);
          }
        } catch (error) {
          if (MCPNotConnectedError.isInstance(error)) {
            notConnected += 1;
            outcome = "not_connected";
          } else unclassified.push(error);
        }
        afterSettled(outcome);
        if (outcome !== "success") {
          // A failed call means the adapter already dropped the connection: reconnect at once.
          await (reconnecting ?? ensureConnected()).catch((error: unknown) => unclassified.push(error));
        }
      }
    };

    await Promise.all(Array.from({ length: IN_FLIGHT }, () => worker()));
    const failed = [...failures.values()].reduce((a, b) => a + b, 0);

    expect(unclassified).toEqual([]);
    expect(settled).toBe(TOTAL_CALLS);
    expect(successes + failed + notConnected).toBe(TOTAL_CALLS);
    expect(mismatched, "answers delivered to the wrong call").toBe(0);
    expect(killed).toHaveLength(2);
    expect(reconnects).toBeGreaterThanOrEqual(2);
    // Only calls caught by a kill may fail, and only as lost connections: the first failed write
    // to a dead server marks the session closed, so at most the calls in flight fail per kill
    // (plus the ones that raced it and found the adapter not connected).
    expect(unexpectedFailures).toEqual([]);
    expect(failed + notConnected).toBeLessThanOrEqual(KILL_AFTER_SETTLED.length * IN_FLIGHT * 2);
    // Service came back after the last kill: the last calls all succeeded.
    expect(outcomes.slice(-IN_FLIGHT).filter((o) => o !== "success")).toEqual([]);

    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    await adapter.disconnect();
    expect(processListenerCounts()).toEqual(listenersBefore);

    collectGarbage();
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    // Loose on purpose: a leak of 10,000 calls' state would be far above this.
    expect(heapGrowthMb).toBeLessThan(64);
  }, 180_000);
});
