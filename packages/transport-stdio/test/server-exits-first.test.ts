import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  hostileServerConfig,
  listOwnedProcesses,
  parseGrandchildPids,
  readProcess,
  watchProcess,
  watchProcessGroup,
  type HostileServerOptions,
} from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import type { ProcessFamilyStrategy } from "../src/index.js";
import { closeAfterEach, isAlive, observe, waitFor, within, type Observed } from "./helpers.js";

// Issue 14, defect 2: whatever way the server goes first, and whatever its child changed about
// itself, nothing it started may be running once close() (the adapter's disconnect()) returned.

const BOUND_MS = 20_000;
const FAMILIES = ["group", "tagged"] as const satisfies readonly ProcessFamilyStrategy[];
type ChildStyle = NonNullable<HostileServerOptions["grandchildStyle"]>;
/** A plain child; one in a process group of its own; one in a session of its own (double fork); one with an empty environment. */
const STYLES = ["plain", "new-group", "daemon", "scrubbed-env"] as const satisfies readonly ChildStyle[];
type ServerExit = "crash while idle" | "normal exit while idle" | "exit mid-call";
const EXITS: readonly ServerExit[] = ["crash while idle", "normal exit while idle", "exit mid-call"];

const { clients: openClients, transports: openTransports } = closeAfterEach();

interface Session {
  observed: Observed;
  client: Client;
}

async function connect(
  processFamily: ProcessFamilyStrategy,
  style: ChildStyle,
  spawnAtStart: boolean,
): Promise<Session> {
  const options: HostileServerOptions = {
    grandchildStyle: style,
    grandchildLifetimeMs: 60_000,
    ...(spawnAtStart ? { spawnGrandchild: "serve" } : {}),
  };
  const observed = observe(hostileServerConfig(options), { processFamily });
  openTransports.push(observed.transport);
  const client = new Client({ name: "server-exits-first-test", version: "1.0.0" });
  openClients.push(client);
  await client.connect(observed.transport, { timeout: BOUND_MS });
  // The leak check's own ways to find what the transport may have missed: the server's group and
  // session, the leak marker (kept by all but the scrubbed child) and, below, the child's pid.
  watchProcessGroup(observed.transport.pid!);
  return { observed, client };
}

async function reportedGrandchild(session: Session, nth = 0): Promise<number> {
  await waitFor(
    () => parseGrandchildPids(session.observed.transport.stderrTail).length > nth,
    "the grandchild's pid on stderr",
    BOUND_MS,
  );
  const pid = parseGrandchildPids(session.observed.transport.stderrTail)[nth]!;
  watchProcess(pid);
  return pid;
}

/**
 * Each run goes as early as it can, without waiting for a snapshot of the child: with either
 * family a scrubbed child stays in the server's process group, and the others keep the token.
 * (Only a child that scrubbed its environment *and* left the group is known just as a descendant,
 * the documented limit.)
 */
async function makeServerGoFirst(session: Session, exit: ServerExit): Promise<number> {
  const { observed, client } = session;
  const serverPid = observed.transport.pid!;
  if (exit === "exit mid-call") {
    // The child is started by the very call during which the server exits.
    const call = client.callTool({ name: "crash", arguments: { grandchild: true } });
    await expect(call).rejects.toThrow();
    return reportedGrandchild(session);
  }
  const grandchild = await reportedGrandchild(session);
  if (exit === "crash while idle") process.kill(serverPid, "SIGKILL");
  else await client.callTool({ name: "exit", arguments: { code: 0 } });
  return grandchild;
}

describe.each(FAMILIES)("a server that goes first leaves nothing behind (processFamily %s)", (processFamily) => {
  describe.each(STYLES)("its child: %s", (style) => {
    it.each(EXITS)("%s", async (exit) => {
      const session = await connect(processFamily, style, exit !== "exit mid-call");
      const serverPid = session.observed.transport.pid!;
      const grandchild = await makeServerGoFirst(session, exit);

      await within(session.observed.closed, BOUND_MS, "the transport closing after the server went");
      expect(session.observed.transport.closeReason?.code).toBe("SERVER_EXITED");
      expect(session.observed.transport.exit).toEqual(
        exit === "crash while idle"
          ? { code: null, signal: "SIGKILL" }
          : { code: exit === "exit mid-call" ? 1 : 0, signal: null },
      );
      await within(session.client.close(), BOUND_MS, "disconnect");

      // At once, not eventually: close() resolving is the promise.
      expect(isAlive(serverPid)).toBe(false);
      expect(isAlive(grandchild), `grandchild ${grandchild}: ${JSON.stringify(readProcess(grandchild))}`).toBe(false);
      expect(listOwnedProcesses()).toEqual([]);
    });
  });
});
