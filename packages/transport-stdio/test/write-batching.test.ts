import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createStdioTransport, type StdioServerConfig, type StdioTransport } from "../src/index.js";
import { nodePlatform } from "../src/platform.js";
import { within } from "./helpers.js";

// When the transport writes to the server's stdin: a lone send at once, the second and later
// sends before the next read together at the end of their tick, and what the answers of one
// multi-line read send together.

const BOUND_MS = 30_000;
const ping = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });
const lineOf = (message: JSONRPCMessage): string => `${JSON.stringify(message)}\n`;

afterEach(async () => {
  await expectNoLeakedProcesses();
});

/** `cat` echoes every line back and exits on EOF. */
const CAT = { command: "cat" };

/**
 * A server that answers the first line it reads with `count` notifications in one write (so they
 * reach the transport in one read), then reads on until EOF.
 */
const notifiesTogether = (count: number): StdioServerConfig => ({
  command: process.execPath,
  args: [
    "-e",
    `process.stdin.once("data", () => process.stdout.write(Array.from({ length: ${count} }, (_, i) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/n" + i }) + "\\n").join("")))`,
  ],
});

interface Recorded {
  transport: StdioTransport;
  /** Every write to the server's stdin, in order. */
  writes: string[];
  /** Every chunk read from the server's stdout, in order. */
  reads: string[];
  received: JSONRPCMessage[];
  /** Resolves once `count` messages have been received (bounded). */
  receivedCount(count: number): Promise<void>;
}

/** A transport whose writes to the server and reads from it are recorded, through an injected spawn. */
function recorded(config: StdioServerConfig): Recorded {
  const writes: string[] = [];
  const reads: string[] = [];
  const transport = createStdioTransport(config, {
    platform: {
      ...nodePlatform,
      spawn: (command, args, options) => {
        const child = nodePlatform.spawn(command, args, options);
        const stdin = child.stdin!;
        const write = stdin.write.bind(stdin) as (chunk: unknown, ...rest: unknown[]) => boolean;
        stdin.write = ((chunk: unknown, ...rest: unknown[]) => {
          writes.push(String(chunk));
          return write(chunk, ...rest);
        }) as typeof stdin.write;
        child.stdout!.on("data", (chunk: Buffer) => reads.push(chunk.toString("utf8")));
        return child;
      },
    },
  });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  const receivedCount = (count: number): Promise<void> =>
    within(
      (async () => {
        while (received.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      BOUND_MS,
      `${count} messages`,
    );
  return { transport, writes, reads, received, receivedCount };
}

describe("writes to the server", () => {
  it("writes a burst sent in one turn in two writes: the first at once, the rest together", async () => {
    // What a gateway does with the requests of one read of its client: every one is sent upstream
    // in the same turn, and none of them arrived together from this server.
    const { transport, writes, received, receivedCount } = recorded(CAT);
    await transport.start();
    const burst = Array.from({ length: 20 }, (_, index) => ping(index));
    const sent = burst.map((message) => transport.send(message));
    // The first left before the others were sent; the rest wait for the end of the tick.
    expect(writes).toEqual([lineOf(burst[0]!)]);
    await Promise.all(sent);
    expect(writes).toEqual([lineOf(burst[0]!), burst.slice(1).map(lineOf).join("")]);
    // The echoes may come back several to a read: that batches only what their own tick sends.
    await receivedCount(20);
    // A send in a later tick is lone again: written at once, in a write of its own.
    await new Promise((resolve) => setImmediate(resolve));
    const before = writes.length;
    const lone = transport.send(ping(20));
    expect(writes.slice(before)).toEqual([lineOf(ping(20))]);
    await lone;
    await receivedCount(21);
    expect(received).toEqual([...burst, ping(20)]);
    await transport.close();
  });

  it("writes a lone send at once in a later tick after a read of several lines that sent nothing", async () => {
    const { transport, writes, reads, received, receivedCount } = recorded(notifiesTogether(2));
    await transport.start();
    await transport.send(ping(1));
    await receivedCount(2);
    // Both lines came in one read (else this test would prove nothing), and nothing was sent for them.
    expect(reads).toEqual([received.map(lineOf).join("")]);
    expect(writes).toEqual([lineOf(ping(1))]);
    await new Promise((resolve) => setImmediate(resolve));
    const lone = transport.send(ping(2));
    expect(writes).toEqual([lineOf(ping(1)), lineOf(ping(2))]);
    await lone;
    await transport.close();
  });

  it("writes a send of a later tick before any answer was read, at the end of that tick", async () => {
    // A server that reads and never answers: no read of ours clears the lone write's mark.
    const { transport, writes } = recorded({ command: process.execPath, args: ["-e", "process.stdin.resume()"] });
    await transport.start();
    await transport.send(ping(1));
    await new Promise((resolve) => setImmediate(resolve));
    const later = transport.send(ping(2));
    await later;
    expect(writes).toEqual([lineOf(ping(1)), lineOf(ping(2))]);
    // That write cleared the mark: the next send is lone again, written before send() returns.
    await new Promise((resolve) => setImmediate(resolve));
    const lone = transport.send(ping(3));
    expect(writes).toEqual([lineOf(ping(1)), lineOf(ping(2)), lineOf(ping(3))]);
    await lone;
    await transport.close();
  });

  it("writes what the answers of one read send, however many reactions later, in one write", async () => {
    // As a client's continuations do: each message's sender runs a few promise reactions after it.
    const { transport, writes, reads, received, receivedCount } = recorded(notifiesTogether(3));
    const sent: Promise<void>[] = [];
    const replyLater = async (id: number): Promise<void> => {
      await Promise.resolve();
      await Promise.resolve();
      sent.push(transport.send(ping(id)));
    };
    transport.onmessage = (message) => {
      received.push(message);
      void replyLater(100 + received.length);
    };
    await transport.start();
    await transport.send(ping(1));
    await receivedCount(3);
    expect(reads).toHaveLength(1);
    await Promise.all(sent);
    expect(writes).toEqual([lineOf(ping(1)), [101, 102, 103].map((id) => lineOf(ping(id))).join("")]);
    await transport.close();
  });
});
