import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { serveStdio } from "../src/index.js";
import { gatewayForFile } from "./fixtures.js";

// Once a stream connection is pinned to the 2025 era, its messages go from the wire to the session
// directly instead of through the SDK's era entry (WireTap). The switch happens while the entry may
// still hold queued messages: a client that sends its whole opening (initialize, initialized, a
// listing, calls) in one chunk must get every answer once, in a session that works afterwards, and
// the connection must still close when stdin ends. server-everything behind it over real stdio.
const running = gatewayForFile(["everything"]);

interface Answer {
  id: number;
  result?: { content?: { text?: string }[]; tools?: unknown[] };
  error?: { message: string };
}

async function until(ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("a 2025 client over stdio, after the era is pinned", () => {
  it("answers an opening sent in one chunk, then later calls, and closes with stdin", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const answers: Answer[] = [];
    let buffered = "";
    stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const line of parts) {
        if (line.length === 0) continue;
        // Only answers: an upstream's log or list change passed on meanwhile carries no id.
        const message = JSON.parse(line) as { id?: unknown };
        if (message.id !== undefined) answers.push(message as Answer);
      }
    });
    const served = await serveStdio(running.gateway, { stdin, stdout });
    const line = (message: object): string => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
    const call = (id: number): string =>
      line({ id, method: "tools/call", params: { name: "echo", arguments: { message: `call ${id}` } } });
    stdin.write(
      line({
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pin-test", version: "1" } },
      }) +
        line({ method: "notifications/initialized" }) +
        line({ id: 1, method: "tools/list" }) +
        Array.from({ length: 20 }, (_, index) => call(index + 2)).join("") +
        line({ id: 22, method: "ping" }),
    );
    await until(() => answers.length >= 23);
    expect(answers.map((answer) => answer.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 23 }, (_, index) => index),
    );
    expect(answers.find((answer) => answer.id === 1)?.result?.tools?.length).toBeGreaterThan(0);
    for (const answer of answers.filter((item) => item.id >= 2 && item.id <= 21))
      expect(answer.result?.content?.[0]?.text).toContain(`call ${answer.id}`);

    // Later messages (now straight from the wire) reach both the fast path and the SDK Server.
    answers.length = 0;
    stdin.write(call(30) + line({ id: 31, method: "tools/call", params: { name: "no_such_tool" } }));
    stdin.write(line({ id: 32, method: "ping" }));
    await until(() => answers.length >= 3);
    expect(answers.map((answer) => answer.id).sort((a, b) => a - b)).toEqual([30, 31, 32]);
    expect(answers.find((answer) => answer.id === 30)?.result?.content?.[0]?.text).toContain("call 30");
    expect(answers.find((answer) => answer.id === 31)?.error?.message).toContain("Unknown tool");

    stdin.end();
    await served.closed;
    await served.connection.close();
  }, 60_000);
});
