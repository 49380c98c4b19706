import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveStdio } from "../src/index.js";
import { gatewayForFile, linesOf } from "./fixtures.js";

// The gateway's stdio side writes the answers that are ready in the same tick as one write: 30
// calls sent in one chunk (as a host with calls in flight sends them) all come back, each once;
// 30 answers the gateway gives at once (unknown tools: no upstream round trip, so all are ready in
// the same tick whatever the machine's load) leave in one write, not thirty (whatever else the
// gateway writes meanwhile is not counted). server-everything behind it over real stdio.
const running = gatewayForFile(["everything"]);

describe("the stdio side with many calls in flight", () => {
  it("answers every call once, writing ready answers together", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const writes: string[] = [];
    const write = stdout.write.bind(stdout);
    stdout.write = ((...args: Parameters<typeof write>) => {
      writes.push(String(args[0]));
      return write(...args);
    }) as typeof stdout.write;
    const lines = linesOf(stdout);
    const served = await serveStdio(running.gateway, { stdin, stdout });
    const send = (message: object): void => {
      stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    };
    send({
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "batching-test", version: "1" } },
    });
    send({ method: "notifications/initialized" });
    const calls = Array.from({ length: 30 }, (_, index) => ({
      id: index + 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: `call ${index + 1}` } },
    }));
    stdin.write(calls.map((call) => `${JSON.stringify({ jsonrpc: "2.0", ...call })}\n`).join(""));
    const deadline = Date.now() + 30_000;
    while (lines.length < 31 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const answers = lines.map((line) => JSON.parse(line) as { id: number; result?: { content: unknown[] } });
    expect(answers.map((answer) => answer.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 31 }, (_, index) => index),
    );
    for (const answer of answers.filter((item) => item.id > 0)) {
      expect(JSON.stringify(answer.result?.content)).toContain(`call ${answer.id}`);
    }
    lines.length = 0;
    writes.length = 0;
    const unknown = Array.from({ length: 30 }, (_, index) => ({
      id: 100 + index,
      method: "tools/call",
      params: { name: "no_such_tool", arguments: {} },
    }));
    stdin.write(unknown.map((call) => `${JSON.stringify({ jsonrpc: "2.0", ...call })}\n`).join(""));
    const refusedBy = Date.now() + 30_000;
    // Only the answers to these 30 are judged: anything else the gateway may write meanwhile (an
    // upstream's log or list change passed on) is another tick's write and says nothing of batching.
    const refusals = (): string[] => lines.filter((line) => /"id":1[0-2]\d\b/.test(line));
    while (refusals().length < 30 && Date.now() < refusedBy) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refusals()).toHaveLength(30);
    expect(refusals().every((line) => line.includes("Unknown tool"))).toBe(true);
    expect(writes.filter((text) => /"id":1[0-2]\d\b/.test(text))).toHaveLength(1);
    await served.connection.close();
  }, 60_000);

  it("skips lines that are not JSON-RPC, leaves malformed calls to the SDK's checks, and goes on", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = linesOf(stdout);
    const served = await serveStdio(running.gateway, { stdin, stdout });
    const answer = async (id: number): Promise<{ result?: { content: unknown[] }; error?: { code: number } }> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const found = lines
          .map((line) => JSON.parse(line) as { id?: number; result?: { content: unknown[] }; error?: { code: number } })
          .find((message) => message.id === id);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no answer to request ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const send = (message: object): void => {
      stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    };
    send({
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hostile-lines", version: "1" } },
    });
    send({ method: "notifications/initialized" });
    await answer(0);
    stdin.write('not json\n{"jsonrpc":"1.0","id":7,"method":"tools/call"}\n[1,2]\n');
    // Arguments that are not an object: not the fast path's shape, so the SDK server refuses it as before.
    send({ id: 1, method: "tools/call", params: { name: "echo", arguments: [1, 2] } });
    const refused = await answer(1);
    expect(refused.result).toBeUndefined();
    expect(refused.error?.code).toBeLessThan(0);
    send({ id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "still here" } } });
    expect(JSON.stringify((await answer(2)).result?.content)).toContain("still here");
    expect(lines.some((line) => line.includes('"id":7'))).toBe(false);
    await served.connection.close();
  }, 60_000);
});
