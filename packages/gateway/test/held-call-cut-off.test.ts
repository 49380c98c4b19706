import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTempDirectory,
  elicitingEvents,
  elicitingEventsUntil,
  elicitingStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { killCopy, mcpUrlOf, startPeerCopies, stopProcess, type RunningGateway } from "./balancer.js";
import { answeredWith, callToolByHand, questionOf, streamToolCallByHand } from "./modern-by-hand.js";

// Two `serve --peer-url` processes sharing one key, each with its own eliciting servers over stdio
// (a reader and a writer: a stdio upstream's question is refused while two clients' calls run
// there). Both calls wait in copy one; their retries reach copy two, which passes them on to copy
// one and relays its answers. Their tools send progress once answered, then hold their result while
// a file exists: the test SIGKILLs copy one once the client got that progress, so copy one dies in
// the middle of answering, before its response went out.
const KEY_VARIABLE = "M38_GATEWAY_STATE_KEY";
const READ = "reader__look-up-slowly";
const WRITE = "writer__write-slowly";
let directory: TempDirectory;
let eventsFile: string;
let holdFile: string;
const gateways: RunningGateway[] = [];

beforeAll(async () => {
  directory = await createTempDirectory("gateway-cut-off-");
  eventsFile = join(directory.path, "events.txt");
  holdFile = join(directory.path, "hold");
  await writeFile(eventsFile, "");
  const eliciting = elicitingStdioServer({ eventsFile });
  const configFile = join(directory.path, "gateways.json");
  await writeFile(configFile, JSON.stringify({ mcpServers: { reader: eliciting, writer: eliciting } }));
  gateways.push(...(await startPeerCopies(configFile, { count: 2, prefix: "c", keyVariable: KEY_VARIABLE })));
}, 180_000);

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
  await directory.remove();
  Reflect.deleteProperty(process.env, KEY_VARIABLE);
}, 60_000);

describe("the copy holding a call dies while answering its forwarded retry", () => {
  it(
    "runs a read-only call again on the live copy, in the same exchange; a write gets REQUEST_STATE_HOLDER_GONE",
    { timeout: 90_000 },
    async () => {
      const holder = gateways[0];
      const live = mcpUrlOf(gateways[1]);
      const holdWhile = { holdWhile: holdFile };
      await writeFile(holdFile, "");
      const read = questionOf(await callToolByHand({ url: mcpUrlOf(holder), name: READ, arguments: holdWhile }));
      const write = questionOf(await callToolByHand({ url: mcpUrlOf(holder), name: WRITE, arguments: holdWhile }));

      // The retries reach copy two, which passes them on; copy one's upstreams send progress, then hold.
      const readRetry = streamToolCallByHand({
        url: live,
        name: READ,
        arguments: holdWhile,
        progressToken: "read",
        extra: answeredWith(read, "Answered to the dead copy"),
      });
      const writeRetry = streamToolCallByHand({
        url: live,
        name: WRITE,
        arguments: holdWhile,
        progressToken: "write",
        extra: answeredWith(write, "Too late"),
      });
      await Promise.all([readRetry.progressed, writeRetry.progressed]);
      if (holder !== undefined) await killCopy(holder);

      // The read: the progress relayed before, then the rerun's own question (its upstream, on copy
      // two, asks again), in the same exchange.
      const readMessages = await readRetry.messages;
      expect(readMessages.map((message) => message["method"] ?? "response")).toEqual([
        "notifications/progress",
        "response",
      ]);
      const again = questionOf(readMessages[1] as Parameters<typeof questionOf>[0]);
      await rm(holdFile);
      const done = await callToolByHand({
        url: live,
        name: READ,
        arguments: holdWhile,
        extra: answeredWith(again, "Ruth"),
      });
      expect(done.error).toBeUndefined();
      expect(JSON.stringify(done.result?.["content"])).toContain("look-up-slowly for Ruth");

      // The write: its progress, then REQUEST_STATE_HOLDER_GONE saying why it was not run again.
      const writeMessages = await writeRetry.messages;
      expect(writeMessages.map((message) => message["method"] ?? "response")).toEqual([
        "notifications/progress",
        "response",
      ]);
      const error = writeMessages[1]?.["error"] as { message: string; data: { code: string } } | undefined;
      expect(error?.data.code).toBe("REQUEST_STATE_HOLDER_GONE");
      expect(error?.message).toMatch(/stopped while answering .*It was not run again here: .*may change something/);

      // Counted upstream: the read ran twice, the second time by another server process (copy two's),
      // which also gave the result; the write ran once, and never finished.
      await elicitingEventsUntil(eventsFile, 1, "look-up-slowly answered Ruth");
      const events = await elicitingEvents(eventsFile);
      const readRuns = events.filter((line) => line.startsWith("look-up-slowly ran "));
      expect(readRuns).toHaveLength(2);
      expect(new Set(readRuns).size).toBe(2);
      const finisher = events
        .find((line) => line.startsWith("look-up-slowly answered Ruth "))
        ?.split(" ")
        .at(-1);
      expect(readRuns[1]?.endsWith(` ${String(finisher)}`)).toBe(true);
      expect(events.filter((line) => line.startsWith("write-slowly ran "))).toHaveLength(1);
      expect(events.filter((line) => line.startsWith("write-slowly answered "))).toEqual([]);
    },
  );
});
