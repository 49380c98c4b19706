import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTempDirectory,
  elicitingEvents,
  elicitingEventsUntil,
  elicitingStdioServer,
  listDescendantProcesses,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import {
  killCopy,
  mcpUrlOf,
  startNginx,
  startPeerCopies,
  stopProcess,
  type RunningGateway,
  type RunningNginx,
} from "./balancer.js";
import { answeredWith, callToolByHand, questionOf, streamToolCallByHand } from "./modern-by-hand.js";

// held-call-cut-off.test.ts through the real load balancer. Three `serve --peer-url` processes
// sharing one key, each with its own eliciting servers over stdio (a reader and a writer): g1 and g2
// behind docs/gateway.md's nginx, g3 reached only by the others (a second holder to kill). The
// calls wait in the holder; their retries go through nginx, land on g2 and are passed on to the
// holder, whose upstream sends progress and holds its result; the holder is SIGKILLed once the
// client has that progress. With `askOnce`, the rerun skips the question (its first run asked), so
// the rerun itself sends progress and holds: the client's one exchange ends with its result, or the
// client leaves while it runs. A second nginx runs with proxy_buffering on (nginx's default): the
// progress still arrives at once (nginx buffers what the client has not read yet, not what it has).
const KEY_VARIABLE = "M39_GATEWAY_STATE_KEY";
const READ = "reader__look-up-slowly";
const WRITE = "writer__write-slowly";
let directory: TempDirectory;
let eventsFile: string;
const gateways: RunningGateway[] = [];
let nginx: RunningNginx | undefined;
let bufferingNginx: RunningNginx | undefined;

beforeAll(async () => {
  directory = await createTempDirectory("gateway-nginx-cut-off-");
  eventsFile = join(directory.path, "events.txt");
  await writeFile(eventsFile, "");
  const eliciting = elicitingStdioServer({ eventsFile });
  const configFile = join(directory.path, "gateways.json");
  await writeFile(configFile, JSON.stringify({ mcpServers: { reader: eliciting, writer: eliciting } }));
  gateways.push(...(await startPeerCopies(configFile, { count: 3, prefix: "g", keyVariable: KEY_VARIABLE })));
  const balanced = gateways.slice(0, 2).map((gateway) => gateway.port);
  nginx = await startNginx(balanced, directory.path);
  const bufferingDirectory = join(directory.path, "buffering");
  await mkdir(bufferingDirectory);
  bufferingNginx = await startNginx(balanced, bufferingDirectory, { buffering: true });
}, 180_000);

afterAll(async () => {
  await Promise.all([stopProcess(nginx?.process), stopProcess(bufferingNginx?.process)]);
  await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
  await directory.remove();
  Reflect.deleteProperty(process.env, KEY_VARIABLE);
}, 60_000);

/**
 * Makes nginx's round-robin send its next request to g2: an `initialize` (a 2025-era session, whose
 * id carries the prefix of the copy that opened it) shows where nginx sent it, and with two copies
 * up the next request goes to the other one.
 */
async function nextRequestToSecondCopy(url: string): Promise<void> {
  for (let probe = 0; probe < 4; probe += 1) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
      }),
    });
    await response.text();
    if (response.headers.get("mcp-session-id")?.startsWith("g1-") === true) return;
  }
  throw new Error("nginx never sent a probe to g1");
}

/** The process ids of a gateway copy's upstream servers. */
function serversOf(gateway: RunningGateway | undefined): Set<string> {
  return new Set(listDescendantProcesses(gateway?.process.pid ?? 0).map((child) => String(child.pid)));
}

describe("through nginx, the copy holding a call dies while answering its forwarded retry", () => {
  it(
    "ends a read-only call's one exchange with the rerun's result from the live copy; a write's with REQUEST_STATE_HOLDER_GONE",
    { timeout: 90_000 },
    async () => {
      const [holder, live] = gateways;
      const holdFile = join(directory.path, "hold");
      const readArgs = { holdWhile: holdFile, askOnce: join(directory.path, "read-asked") };
      await writeFile(holdFile, "");
      const read = questionOf(await callToolByHand({ url: mcpUrlOf(holder), name: READ, arguments: readArgs }));
      const write = questionOf(
        await callToolByHand({ url: mcpUrlOf(holder), name: WRITE, arguments: { holdWhile: holdFile } }),
      );

      // Each retry goes through nginx to g2, which passes it on to g1; g1's upstreams send progress, then hold.
      await nextRequestToSecondCopy(nginx?.url ?? "");
      const readRetry = streamToolCallByHand({
        url: nginx?.url ?? "",
        name: READ,
        arguments: readArgs,
        progressToken: "read",
        extra: answeredWith(read, "Answered to the dead copy"),
      });
      await readRetry.progressed;
      await nextRequestToSecondCopy(nginx?.url ?? "");
      const writeRetry = streamToolCallByHand({
        url: nginx?.url ?? "",
        name: WRITE,
        arguments: { holdWhile: holdFile },
        progressToken: "write",
        extra: answeredWith(write, "Too late"),
      });
      await writeRetry.progressed;
      const liveServers = serversOf(live);
      if (holder !== undefined) await killCopy(holder);

      // The read: g2 runs it again; the rerun's progress follows the holder's in the same exchange,
      // and once it may finish, its result ends the exchange.
      await readRetry.progressedTimes(2);
      await rm(holdFile);
      const readMessages = await readRetry.messages;
      expect(readMessages.map((message) => message["method"] ?? "response")).toEqual([
        "notifications/progress",
        "notifications/progress",
        "response",
      ]);
      const result = readMessages[2]?.["result"] as { content?: unknown } | undefined;
      expect(readMessages[2]?.["error"]).toBeUndefined();
      expect(JSON.stringify(result?.content)).toContain("look-up-slowly for (asked before) by ");

      // The write: its progress, then REQUEST_STATE_HOLDER_GONE saying why it was not run again.
      const writeMessages = await writeRetry.messages;
      expect(writeMessages.map((message) => message["method"] ?? "response")).toEqual([
        "notifications/progress",
        "response",
      ]);
      const error = writeMessages[1]?.["error"] as { message: string; data: { code: string } } | undefined;
      expect(error?.data.code).toBe("REQUEST_STATE_HOLDER_GONE");
      expect(error?.message).toMatch(/stopped while answering .*It was not run again here: .*may change something/);

      // Counted upstream: the read ran twice, the second time by g2's reader, which gave the result
      // the client got; the write ran once and never finished.
      const events = await elicitingEvents(eventsFile);
      const readRuns = events.filter((line) => line.startsWith("look-up-slowly ran "));
      expect(readRuns).toHaveLength(2);
      const rerunBy = readRuns[1]?.split(" ").at(-1) ?? "";
      expect(liveServers.has(rerunBy)).toBe(true);
      expect(readRuns[0]?.endsWith(` ${rerunBy}`)).toBe(false);
      expect(events.filter((line) => line.startsWith("look-up-slowly answered "))).toEqual([
        `look-up-slowly answered (asked before) ${rerunBy}`,
      ]);
      expect(JSON.stringify(result?.content)).toContain(`by ${rerunBy}`);
      expect(events.filter((line) => line.startsWith("write-slowly ran "))).toHaveLength(1);
      expect(events.filter((line) => line.startsWith("write-slowly answered "))).toEqual([]);
    },
  );

  it(
    "cancels the rerun upstream when the client leaves while it runs, and goes on serving (nginx buffering on)",
    { timeout: 90_000 },
    async () => {
      const [, live, holder] = gateways;
      const holdFile = join(directory.path, "hold-for-cancel");
      const readArgs = { holdWhile: holdFile, askOnce: join(directory.path, "cancel-asked") };
      await writeFile(holdFile, "");
      const before = await elicitingEvents(eventsFile);
      const read = questionOf(await callToolByHand({ url: mcpUrlOf(holder), name: READ, arguments: readArgs }));

      // Through the buffering nginx to g2 (g1 is dead: nginx moves the refused request on), passed on to g3.
      const leave = new AbortController();
      const retry = streamToolCallByHand({
        url: bufferingNginx?.url ?? "",
        name: READ,
        arguments: readArgs,
        progressToken: "cancel",
        signal: leave.signal,
        extra: answeredWith(read, "Leaving"),
      });
      await retry.progressed;
      const liveServers = serversOf(live);
      if (holder !== undefined) await killCopy(holder);
      await retry.progressedTimes(2);
      // The holder's run held, then the rerun's: the last to hold is the rerun.
      const heldBefore = before.filter((line) => line.startsWith("look-up-slowly holds ")).length;
      const rerunBy = (await elicitingEventsUntil(eventsFile, heldBefore + 2, "look-up-slowly holds "))
        .at(-1)
        ?.split(" ")
        .at(-1);
      expect(liveServers.has(rerunBy ?? "")).toBe(true);

      // The client leaves while the rerun holds: g2 cancels it upstream (the tool saw notifications/cancelled).
      leave.abort();
      await expect(retry.messages).rejects.toThrow();
      const cancelled = await elicitingEventsUntil(eventsFile, 1, "look-up-slowly cancelled ");
      expect(cancelled).toEqual([`look-up-slowly cancelled ${String(rerunBy)}`]);
      // The file ends with a newline: its last "line" before is the empty one the next line filled.
      const after = (await elicitingEvents(eventsFile)).slice(before.length - 1);
      expect(after.filter((line) => line.startsWith("look-up-slowly ran "))).toHaveLength(2);
      expect(after.filter((line) => line.startsWith("look-up-slowly answered "))).toEqual([]);

      // g2 goes on: a new call through nginx asks and completes, and nothing went unhandled there.
      const next = questionOf(
        await callToolByHand({ url: nginx?.url ?? "", name: READ, arguments: { holdWhile: `${holdFile}-none` } }),
      );
      const done = await callToolByHand({
        url: nginx?.url ?? "",
        name: READ,
        arguments: { holdWhile: `${holdFile}-none` },
        extra: answeredWith(next, "Still here"),
      });
      expect(JSON.stringify(done.result?.["content"])).toContain("look-up-slowly for Still here");
      expect(live?.process.exitCode).toBeNull();
      expect(live?.log.filter((line) => /unhandled|uncaught/i.test(line))).toEqual([]);
      await rm(holdFile);
    },
  );
});
