import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  killCopy,
  mcpUrlOf,
  startGateway,
  startNginx,
  startPeerCopies,
  stopProcess,
  type RunningGateway,
  type RunningNginx,
} from "./balancer.js";
import { elicitingStdioServer, everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { realUpstreams, type Upstreams } from "./fixtures.js";
import { callToolByHand, questionOf, type ModernAnswer } from "./modern-by-hand.js";

// Two `mcp-tool-adapter serve --http --request-state-key-env ... --peer-url ...` processes behind a
// real nginx (docs/gateway.md's config: round-robin, no affinity for 2026-07-28), each with its own
// server-everything over stdio: a 2025-era upstream, whose elicitation waits in the copy that
// asked. The retries that land on the other copy are passed on to the one holding the call.
// Beside it, the eliciting test server three times (each copy runs its own processes): a read-only
// tool that asks under two names (two calls of it wait in one copy at once, and a stdio upstream's
// question is refused while two clients' calls run there) and a write that asks, every run of
// which the servers record in one events file, so the reruns after a copy dies are counted upstream.
const KEY_VARIABLE = "R35_GATEWAY_STATE_KEY";
const ELICIT_TOOL = "everything__trigger-elicitation-request";
const READ_TOOLS = ["first_reader__look-up", "second_reader__look-up"] as const;
const WRITE_TOOL = "writer__ask-then-write";
let upstreams: Upstreams;
let eventsFile: string;
const gateways: RunningGateway[] = [];
let nginx: RunningNginx | undefined;

beforeAll(async () => {
  upstreams = await realUpstreams(["everything"]);
  eventsFile = join(upstreams.directory.path, "events.txt");
  await writeFile(eventsFile, "");
  const eliciting = elicitingStdioServer({ eventsFile });
  const configFile = join(upstreams.directory.path, "gateways.json");
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        everything: everythingStdioServer(),
        first_reader: eliciting,
        second_reader: eliciting,
        writer: eliciting,
      },
    }),
  );
  gateways.push(...(await startPeerCopies(configFile, { count: 2, prefix: "g", keyVariable: KEY_VARIABLE })));
  nginx = await startNginx(
    gateways.map((gateway) => gateway.port),
    upstreams.directory.path,
  );
}, 180_000);

afterAll(async () => {
  await stopProcess(nginx?.process);
  await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
  await upstreams.remove();
  Reflect.deleteProperty(process.env, KEY_VARIABLE);
}, 60_000);

const answerAt = (url: string, asked: { state: string; key: string }, name: string): Promise<ModernAnswer> =>
  callToolByHand({
    url,
    name: ELICIT_TOOL,
    extra: {
      requestState: asked.state,
      inputResponses: { [asked.key]: { action: "accept", content: { name, check: true, email: "x@example.com" } } },
    },
  });

describe("serve --peer-url, two processes behind nginx, a 2025-era upstream that asks", () => {
  it("answer a question asked through one process through the other", { timeout: 60_000 }, async () => {
    for (const [asking, answering] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const asked = questionOf(await callToolByHand({ url: mcpUrlOf(gateways[asking]), name: ELICIT_TOOL }));
      const answered = await answerAt(mcpUrlOf(gateways[answering]), asked, `Copy ${String(answering + 1)}`);
      expect(answered.error).toBeUndefined();
      expect(JSON.stringify(answered.result?.["content"])).toContain(`Copy ${String(answering + 1)}`);
    }
  });

  it("answer by hand through nginx, whichever copy each leg lands on", { timeout: 60_000 }, async () => {
    for (let call = 0; call < 6; call += 1) {
      const asked = questionOf(await callToolByHand({ url: nginx?.url ?? "", name: ELICIT_TOOL }));
      const answered = await answerAt(nginx?.url ?? "", asked, `Through nginx ${String(call)}`);
      expect(answered.error).toBeUndefined();
      expect(JSON.stringify(answered.result?.["content"])).toContain(`Through nginx ${String(call)}`);
    }
  });

  it("serve the v2 client's calls through nginx", { timeout: 120_000 }, async () => {
    const client = new Client(
      { name: "v2-through-nginx", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", () => ({
      action: "accept",
      content: { name: "Dorothy", check: true, email: "dorothy@example.com" },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(nginx?.url ?? "")));
    try {
      for (let call = 0; call < 6; call += 1) {
        const result = await client.callTool({ name: ELICIT_TOOL, arguments: {} });
        expect(result.isError).not.toBe(true);
        expect(JSON.stringify(result.content)).toContain("Dorothy");
      }
    } finally {
      await client.close();
    }
  });

  it("serve our adapter's calls on engine-2026 through nginx", { timeout: 120_000 }, async () => {
    const adapter = new MCPToolAdapter(
      { name: "gateways", transport: "streamable-http", url: nginx?.url ?? "", protocol: "2026-07-28" },
      {
        engine: createEngine2026(),
        onElicitation: () =>
          Promise.resolve({ action: "accept", content: { name: "Katherine", check: true, email: "k@example.com" } }),
      },
    );
    await adapter.connect();
    try {
      await adapter.discoverTools();
      for (let call = 0; call < 6; call += 1) {
        const result = await adapter.invoke(ELICIT_TOOL, {});
        expect(result.success, result.error ?? "").toBe(true);
        expect(JSON.stringify(result.data)).toContain("Katherine");
      }
    } finally {
      await adapter.disconnect();
    }
  });

  it(
    "when the copy holding calls dies: run a read-only one again on the live copy, tell the client to start a write again",
    { timeout: 60_000 },
    async () => {
      // Waiting in copy one: server-everything's elicitation (not read-only), a read-only call of
      // each reader (one to retry straight to copy two, one through nginx) and the write.
      const asked = questionOf(await callToolByHand({ url: mcpUrlOf(gateways[0]), name: ELICIT_TOOL }));
      const reads = [];
      for (const name of READ_TOOLS) {
        reads.push(questionOf(await callToolByHand({ url: mcpUrlOf(gateways[0]), name, arguments: { topic: name } })));
      }
      const write = questionOf(
        await callToolByHand({ url: mcpUrlOf(gateways[0]), name: WRITE_TOOL, arguments: { topic: "ledger" } }),
      );
      const before = await runsUpstream();
      expect(before).toEqual({ reads: 2, readServers: 2, writes: 1 });
      if (gateways[0] !== undefined) await killCopy(gateways[0]);

      // Not read-only: the client must call it again.
      const direct = await answerAt(mcpUrlOf(gateways[1]), asked, "Too late");
      expect(direct.error?.code).toBe(-32602);
      expect(direct.error?.data?.code).toBe("REQUEST_STATE_HOLDER_GONE");
      expect(direct.error?.message).toMatch(/cannot be reached .*It was not run again here.*Call the tool again/);
      // Through nginx too (the dead copy's connections are refused, so nginx sends every request to the live one).
      const balanced = await answerAt(nginx?.url ?? "", asked, "Too late");
      expect(balanced.error?.data?.code).toBe("REQUEST_STATE_HOLDER_GONE");

      // Read-only: each runs again on the live copy, whose upstream asks again; the client answers
      // the new question, and the call completes.
      for (const [index, url] of [mcpUrlOf(gateways[1]), nginx?.url ?? ""].entries()) {
        const name = READ_TOOLS[index] ?? "";
        const read = reads[index] ?? { state: "", key: "" };
        const again = questionOf(await answerByName(url, name, read, "Answered to the dead copy"));
        const done = await answerByName(nginx?.url ?? "", name, again, `Reader ${String(index)}`);
        expect(done.error).toBeUndefined();
        expect(JSON.stringify(done.result?.["content"])).toContain(`look-up for Reader ${String(index)} about ${name}`);
      }
      // The write: REQUEST_STATE_HOLDER_GONE, saying why it did not run again; it ran nowhere a second time.
      const lost = await answerByName(nginx?.url ?? "", WRITE_TOOL, write, "Too late");
      expect(lost.error?.data?.code).toBe("REQUEST_STATE_HOLDER_GONE");
      expect(lost.error?.message).toMatch(/not run again here: .*may change something/);
      // Counted upstream: each read ran once more, by a server process of the live copy; the write did not.
      expect(await runsUpstream()).toEqual({ reads: 4, readServers: 4, writes: 1 });

      // The live copy goes on.
      const echo = await callToolByHand({
        url: nginx?.url ?? "",
        name: "everything__echo",
        arguments: { message: "still here" },
      });
      expect(JSON.stringify(echo.result)).toContain("still here");
    },
  );
});

/** A retry of `name` answering its question with `who`. */
function answerByName(
  url: string,
  name: string,
  asked: { state: string; key: string },
  who: string,
): Promise<ModernAnswer> {
  return callToolByHand({
    url,
    name,
    arguments: { topic: name },
    extra: { requestState: asked.state, inputResponses: { [asked.key]: { action: "accept", content: { name: who } } } },
  });
}

/** What the eliciting servers recorded: the runs of the read-only tool (and by how many server processes), and of the write. */
async function runsUpstream(): Promise<{ reads: number; readServers: number; writes: number }> {
  const lines = (await readFile(eventsFile, "utf8")).split("\n");
  const reads = lines.filter((line) => line.startsWith("look-up ran "));
  return {
    reads: reads.length,
    readServers: new Set(reads).size,
    writes: lines.filter((line) => line.startsWith("ask-then-write ran ")).length,
  };
}

describe("serve --peer-url, refused", () => {
  it("without the shared key, or when it is not a URL, naming what to give", { timeout: 120_000 }, async () => {
    for (const [args, exit, named] of [
      [["--peer-url", "http://127.0.0.1:8931/mcp"], 2, "--peer-url needs --http and --request-state-key-env"],
      [["--peer-url", "copy-one", "--request-state-key-env", KEY_VARIABLE], 1, "peerUrl must be"],
    ] as const) {
      const failed = await startGateway(upstreams.configFile, "w3", args).then(
        async (running) => {
          await stopProcess(running.process);
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(String(failed)).toMatch(new RegExp(`gateway exited \\(${String(exit)}\\)`));
      expect(String(failed)).toContain(named);
    }
  });
});
