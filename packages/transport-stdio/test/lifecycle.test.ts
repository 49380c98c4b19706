import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createTempDirectory, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { createStdioTransport, liveServerCount, StdioTransportError, type StdioTransport } from "../src/index.js";
import { nodePlatform } from "../src/platform.js";
import { isAlive, observe, within } from "./helpers.js";

const BOUND_MS = 30_000;
const ping = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });

afterEach(async () => {
  await expectNoLeakedProcesses();
});

/** `cat` is the simplest stdio peer there is: it echoes every line back and exits on EOF. */
const CAT = { command: "cat" };

describe("sending and receiving", () => {
  it("round-trips JSON-RPC lines through a real pipe", async () => {
    const observed = observe(CAT);
    const received: JSONRPCMessage[] = [];
    observed.transport.onmessage = (message) => received.push(message);
    await observed.transport.start();
    await observed.transport.send(ping(1));
    await observed.transport.send({ jsonrpc: "2.0", method: "notifications/x", params: { text: "üñí ✓" } });
    await within(
      (async () => {
        while (received.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      BOUND_MS,
      "the echoes",
    );
    expect(received).toEqual([ping(1), { jsonrpc: "2.0", method: "notifications/x", params: { text: "üñí ✓" } }]);
    await observed.transport.close();
    expect(observed.transport.exit).toEqual({ code: 0, signal: null });
    expect(observed.errors).toEqual([]);
  });

  it("delivers messages sent in the same tick (written together) whole and in order", async () => {
    const observed = observe(CAT);
    const received: JSONRPCMessage[] = [];
    observed.transport.onmessage = (message) => received.push(message);
    await observed.transport.start();
    const pings = Array.from({ length: 200 }, (_, index) => ping(index));
    await Promise.all(pings.map((message) => observed.transport.send(message)));
    await observed.transport.send(ping(200));
    await within(
      (async () => {
        while (received.length < 201) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      BOUND_MS,
      "the echoes",
    );
    expect(received).toEqual([...pings, ping(200)]);
    await observed.transport.close();
    expect(observed.errors).toEqual([]);
  });

  it("writes a lone message before send() returns, not at the end of the tick", async () => {
    let stdin: Writable | undefined;
    const transport = createStdioTransport(CAT, {
      platform: {
        ...nodePlatform,
        spawn: (command, args, options) => {
          const child = nodePlatform.spawn(command, args, options);
          stdin = child.stdin ?? undefined;
          return child;
        },
      },
    });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    const before = stdin!.writableLength + (stdin as Socket).bytesWritten;
    const sent = transport.send(ping(1));
    expect((stdin as Socket).bytesWritten + stdin!.writableLength).toBeGreaterThan(before);
    await sent;
    await within(
      (async () => {
        while (received.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      BOUND_MS,
      "the echo",
    );
    expect(received).toEqual([ping(1)]);
    await transport.close();
  });

  it("settles a lone send() the pipe cannot take at once only when its bytes are through", async () => {
    const directory = await createTempDirectory();
    const flag = join(directory.path, "read-now");
    const observed = observe(readsOnceFlagExists(flag));
    try {
      const received: JSONRPCMessage[] = [];
      observed.transport.onmessage = (message) => received.push(message);
      await observed.transport.start();
      // Far more than any pipe holds: the write cannot finish while the server is not reading.
      const big: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/x", params: { text: "x".repeat(4 << 20) } };
      let settled = false;
      const sent = observed.transport.send(big).then(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toBe(false);
      await writeFile(flag, "");
      await within(sent, BOUND_MS, "the write");
      await within(
        (async () => {
          while (received.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
        })(),
        BOUND_MS,
        "the echo",
      );
      expect(received).toEqual([big]);
      expect(observed.errors).toEqual([]);
    } finally {
      await observed.transport.close();
      await directory.remove();
    }
  });

  it("settles a lone send() made while an earlier write still waits for the pipe only after both are through, in order", async () => {
    // The server's first line is a read: the next send is a lone one, written at once.
    const directory = await createTempDirectory();
    const flag = join(directory.path, "read-now");
    const observed = observe(readsOnceFlagExists(flag, { sayReadyFirst: true }));
    try {
      const received: JSONRPCMessage[] = [];
      observed.transport.onmessage = (message) => received.push(message);
      await observed.transport.start();
      const big: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/x", params: { text: "x".repeat(4 << 20) } };
      const small: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/y" };
      const settled: string[] = [];
      const sentBig = observed.transport.send(big).then(() => settled.push("big"));
      // The server's line is read after the big write: the small send is a lone one again.
      await within(
        (async () => {
          while (received.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
        })(),
        BOUND_MS,
        "the server's first line",
      );
      const sentSmall = observed.transport.send(small).then(() => settled.push("small"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toEqual([]);
      await writeFile(flag, "");
      await within(Promise.all([sentBig, sentSmall]), BOUND_MS, "the writes");
      expect(settled).toEqual(["big", "small"]);
      await within(
        (async () => {
          while (received.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
        })(),
        BOUND_MS,
        "the echoes",
      );
      expect(received).toEqual([{ jsonrpc: "2.0", method: "notifications/ready" }, big, small]);
      expect(observed.errors).toEqual([]);
    } finally {
      await observed.transport.close();
      await directory.remove();
    }
  });

  it("writes what was sent in the same tick as close() before ending the server's stdin", async () => {
    const observed = observe(CAT);
    const received: JSONRPCMessage[] = [];
    observed.transport.onmessage = (message) => received.push(message);
    await observed.transport.start();
    const sent = observed.transport.send(ping(7));
    await within(observed.transport.close(), BOUND_MS, "close");
    await expect(sent).resolves.toBeUndefined();
    expect(received).toEqual([ping(7)]);
    expect(observed.errors).toEqual([]);
  });

  it("rejects send() before start() and after close(), with clear errors", async () => {
    const transport = createStdioTransport(CAT);
    await expect(transport.send(ping(1))).rejects.toMatchObject({ code: "NOT_STARTED" });
    await transport.start();
    await transport.close();
    const error: unknown = await transport.send(ping(2)).catch((reason: unknown) => reason);
    expect(StdioTransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "TRANSPORT_CLOSED", message: expect.stringContaining("closed") as unknown });
  });

  it("reports a write error (EPIPE) through onerror and the send() promise, never as an uncaught exception", async () => {
    // The server closes its stdin but keeps running, so our writes hit a pipe with no reader.
    const observed = observe({
      command: process.execPath,
      args: ["-e", "require('fs').closeSync(0); process.stderr.write('closed'); setTimeout(() => {}, 30000)"],
    });
    await observed.transport.start();
    await within(
      (async () => {
        while (observed.transport.stderrTail === "") await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      BOUND_MS,
      "the server closing stdin",
    );
    await expect(observed.transport.send(ping(1))).rejects.toMatchObject({
      code: "WRITE_FAILED",
      message: expect.stringContaining("EPIPE") as unknown,
    });
    expect(
      observed.errors.filter((error) => StdioTransportError.isInstance(error)).map((error) => error.code),
    ).toContain("WRITE_FAILED");
    await observed.transport.close();
  });
});

describe.each(["tagged", "group"] as const)("close() (processFamily %s)", (processFamily) => {
  it("is idempotent, calls onclose once and resolves with the process gone", async () => {
    const observed = observe(CAT, { processFamily });
    let closes = 0;
    observed.transport.onclose = () => closes++;
    await observed.transport.start();
    const pid = observed.transport.pid!;
    const first = observed.transport.close();
    const second = observed.transport.close();
    expect(second).toBe(first);
    await within(first, BOUND_MS, "close");
    await observed.transport.close();
    expect(closes).toBe(1);
    expect(isAlive(pid)).toBe(false);
  });

  it("before start() just marks the transport closed", async () => {
    const transport = createStdioTransport(CAT, { processFamily });
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.close();
    expect(closed).toBe(true);
    await expect(transport.start()).rejects.toMatchObject({ code: "ALREADY_STARTED" });
  });
});

describe("host-exit hooks", () => {
  it("installs one set of process listeners for 50 transports and removes it with the last", async () => {
    const events = ["exit", "SIGINT", "SIGTERM", "SIGHUP"] as const;
    const before = events.map((event) => process.listenerCount(event));
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    const transports: StdioTransport[] = Array.from({ length: 50 }, () =>
      createStdioTransport(CAT, { killGraceMs: 1000 }),
    );
    try {
      await Promise.all(transports.map((transport) => transport.start()));
      expect(liveServerCount()).toBe(50);
      expect(events.map((event) => process.listenerCount(event))).toEqual(before.map((count) => count + 1));
    } finally {
      await Promise.all(transports.map((transport) => transport.close()));
      process.removeListener("warning", onWarning);
    }
    expect(liveServerCount()).toBe(0);
    expect(events.map((event) => process.listenerCount(event))).toEqual(before);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});

/**
 * A server that reads nothing until the file `flag` exists, then echoes its stdin (so a large write
 * waits on the pipe until the test says); with `sayReadyFirst`, it first writes one
 * `notifications/ready` line.
 */
function readsOnceFlagExists(
  flag: string,
  options: { sayReadyFirst?: boolean } = {},
): { command: string; args: string[] } {
  const ready = "process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/ready' }) + '\\n'); ";
  const waitThenEcho =
    "const t = setInterval(() => { if (require('fs').existsSync(process.argv[1])) { clearInterval(t); process.stdin.pipe(process.stdout); } }, 20)";
  return {
    command: process.execPath,
    args: ["-e", (options.sayReadyFirst === true ? ready : "") + waitThenEcho, flag],
  };
}
