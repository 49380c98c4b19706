import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { SENT_AT_ONCE } from "@mcp-tool-adapter/core";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { BatchedStdioServerTransport } from "../src/batched-stdio-transport.js";

const nextTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

/** The transport on two in-process streams, with every write to stdout recorded as it happens. */
async function started(): Promise<{
  transport: BatchedStdioServerTransport;
  stdin: PassThrough;
  writes: string[];
  received: JSONRPCMessage[];
}> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const writes: string[] = [];
  const write = stdout.write.bind(stdout);
  stdout.write = ((...args: Parameters<typeof write>) => {
    writes.push(String(args[0]));
    return write(...args);
  }) as typeof stdout.write;
  stdout.resume();
  const transport = new BatchedStdioServerTransport(stdin, stdout);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  return { transport, stdin, writes, received };
}

const request = (id: number): string => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

// Answers wait for the end of the tick only while another request may still be answered in it: the
// answer to the last request the client waits for leaves before send() returns, together with what
// the tick had batched, in order, in one write.
describe("the gateway's stdio transport", () => {
  it("writes the answer to the only request waiting at once", async () => {
    const { transport, stdin, writes, received } = await started();
    stdin.write(request(1));
    await nextTick();
    expect(received).toHaveLength(1);
    expect(transport.send(answer(1))).toBe(SENT_AT_ONCE);
    expect(writes).toEqual([`${JSON.stringify(answer(1))}\n`]);
    await transport.close();
  });

  it("batches answers while other requests wait, and writes them with the last one in one write, in order", async () => {
    const { transport, stdin, writes } = await started();
    stdin.write(request(1) + request(2) + request(3));
    await nextTick();
    const first = transport.send(answer(2));
    const second = transport.send(answer(1));
    expect(writes).toEqual([]);
    // A notification is no answer: it joins the batch and leaves the requests waiting as they were.
    void transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
    expect(writes).toEqual([]);
    void transport.send(answer(3));
    expect(writes).toHaveLength(1);
    expect(
      writes[0]
        ?.trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { id?: number }).id),
    ).toEqual([2, 1, undefined, 3]);
    await Promise.all([first, second]);
    await nextTick();
    expect(writes).toHaveLength(1);
    await transport.close();
  });

  it("stops waiting for a request the client cancelled, and not for a request of the gateway's own with the same id", async () => {
    const { transport, stdin, writes } = await started();
    stdin.write(request(1) + request(2));
    await nextTick();
    // The gateway's own request (roots/list) numbered like a client's request: not an answer.
    void transport.send({ jsonrpc: "2.0", id: 1, method: "roots/list" });
    stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "x" } })}\n`,
    );
    await nextTick();
    expect(transport.send(answer(1))).toBe(SENT_AT_ONCE);
    expect(writes.join("").trim().split("\n")).toHaveLength(2);
    await transport.close();
  });

  it("writes answers to requests it never saw at the end of the tick, as before", async () => {
    const { transport, writes } = await started();
    const sent = transport.send(answer(7));
    expect(sent).not.toBe(SENT_AT_ONCE);
    expect(writes).toEqual([]);
    await sent;
    expect(writes).toEqual([`${JSON.stringify(answer(7))}\n`]);
    await transport.close();
  });
});
