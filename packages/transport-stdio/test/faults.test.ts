import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  hostileServerConfig,
  parseGrandchildPids,
  watchProcessGroup,
  type HostileServerOptions,
} from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { MESSAGE_TOO_LARGE_ERROR_CODE, StdioTransportError, type StdioTransportOptions } from "../src/index.js";
import { closeAfterEach, isAlive, observe, within, type Observed } from "./helpers.js";

/** Far longer than any wait below: a request that ends must end because of the transport, not a timeout. */
const REQUEST_TIMEOUT_MS = 60_000;
const BOUND_MS = 30_000;

const { clients: openClients, transports: openTransports } = closeAfterEach();

interface Connected extends Observed {
  client: Client;
  clientErrors: Error[];
}

function hostile(options: HostileServerOptions, transportOptions: StdioTransportOptions = {}): Observed {
  const observed = observe(hostileServerConfig(options), transportOptions);
  openTransports.push(observed.transport);
  return observed;
}

async function connectClient(observed: Observed, timeout = 40_000): Promise<Connected> {
  const client = new Client({ name: "transport-stdio-faults", version: "1.0.0" });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  openClients.push(client);
  await client.connect(observed.transport, { timeout });
  const pid = observed.transport.pid;
  // Finds what a "group" server leaves in its group; observe()'s leak marker covers both families.
  if (pid !== undefined) watchProcessGroup(pid);
  return { ...observed, client, clientErrors };
}

function stdioErrors(errors: readonly Error[], code: StdioTransportError["code"]): StdioTransportError[] {
  return errors.filter(
    (error): error is StdioTransportError => StdioTransportError.isInstance(error) && error.code === code,
  );
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  await within(
    (async () => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
    })(),
    BOUND_MS,
    what,
  );
}

describe("a server that dies", () => {
  it("that prints an error and exits at once fails connect with its exit code and stderr", async () => {
    const observed = hostile({ exitAtStart: true });
    const client = new Client({ name: "t", version: "1" });
    openClients.push(client);

    await expect(
      within(client.connect(observed.transport, { timeout: REQUEST_TIMEOUT_MS }), BOUND_MS, "connect failing"),
    ).rejects.toThrow();

    await observed.closed;
    const reason = observed.transport.closeReason;
    expect(reason?.code).toBe("SERVER_EXITED");
    expect(reason?.exitCode).toBe(3);
    expect(reason?.stderrTail).toContain("exiting at start as asked");
    expect(reason?.message).toContain("exited with code 3");
    expect(reason?.message).toContain("exiting at start as asked");
    expect(stdioErrors(observed.errors, "SERVER_EXITED")).toEqual([reason]);
  });

  it("killed mid-call rejects the call at once, with the reason reachable", async () => {
    const connected = await connectClient(hostile({}));
    const pid = connected.transport.pid!;
    const call = connected.client.callTool({ name: "hang", arguments: {} }, undefined, { timeout: REQUEST_TIMEOUT_MS });
    const settled = call.then(
      () => undefined,
      (error: unknown) => error,
    );
    // The request is on the wire once the server could have read it; kill it then.
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(pid, "SIGKILL");

    const error = await within(settled, BOUND_MS, "the in-flight call rejecting");
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.ConnectionClosed);
    expect(connected.transport.exit).toEqual({ code: null, signal: "SIGKILL" });
    const [reason] = stdioErrors(connected.clientErrors, "SERVER_EXITED");
    expect(reason?.signal).toBe("SIGKILL");
    expect(reason?.message).toContain("killed by SIGKILL");
    expect(connected.transport.closeReason).toBe(reason);
  });

  it("that exits inside a call rejects the call with the exit code", async () => {
    const connected = await connectClient(hostile({}));
    await expect(
      within(
        connected.client.callTool({ name: "crash", arguments: {} }, undefined, { timeout: REQUEST_TIMEOUT_MS }),
        BOUND_MS,
        "crash",
      ),
    ).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(connected.transport.closeReason?.exitCode).toBe(1);
    await expect(
      connected.transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }),
    ).rejects.toMatchObject({
      code: "TRANSPORT_CLOSED",
      message: expect.stringContaining("exited with code 1") as unknown,
    });
  });
});

describe.each(["tagged", "group"] as const)(
  "a server that never answers initialize (processFamily %s)",
  (processFamily) => {
    it("times the client out, and the close that follows leaves nothing", async () => {
      // A grace of seconds, not 300 ms: on a loaded CI machine a server waiting for a core can take
      // longer than 300 ms to act on a SIGTERM, and the SIGKILL that followed failed this test once.
      const observed = hostile({ neverInitialize: true }, { killGraceMs: 2_000, processFamily });
      const client = new Client({ name: "t", version: "1" });
      openClients.push(client);

      await expect(client.connect(observed.transport, { timeout: 500 })).rejects.toMatchObject({
        code: ErrorCode.RequestTimeout,
      });
      const pid = observed.transport.pid!;
      // The SDK closes the transport itself after a failed initialize; close() joins that.
      await within(observed.transport.close(), BOUND_MS, "close");
      await within(observed.closed, BOUND_MS, "onclose");
      // It keeps running after stdin closes, so it took the SIGTERM.
      expect(observed.transport.exit).toEqual({ code: null, signal: "SIGTERM" });
      expect(isAlive(pid)).toBe(false);
    });

    it("close() escalates to SIGKILL when the server ignores stdin EOF and SIGTERM", async () => {
      // The one-byte stderr flood is written after the SIGTERM handler is installed: a readiness signal.
      const observed = hostile(
        { neverInitialize: true, ignoreSigterm: true, stderrFloodBytes: 1 },
        { killGraceMs: 300, processFamily },
      );
      await observed.transport.start();
      await waitFor(() => observed.transport.stderrTail !== "", "the server installing its SIGTERM handler");

      await within(observed.transport.close(), BOUND_MS, "close");
      expect(observed.transport.exit).toEqual({ code: null, signal: "SIGKILL" });
      expect(isAlive(observed.transport.pid!)).toBe(false);
      expect(observed.errors).toEqual([]);
    });
  },
);

describe.each(["tagged", "group"] as const)(
  "servers that start processes of their own (processFamily %s)",
  (processFamily) => {
    it("close() takes the whole process family down", async () => {
      const connected = await connectClient(hostile({ spawnGrandchild: "serve" }, { processFamily }));
      await waitFor(() => parseGrandchildPids(connected.transport.stderrTail).length > 0, "grandchild pid on stderr");
      const [grandchild] = parseGrandchildPids(connected.transport.stderrTail);
      expect(isAlive(grandchild!)).toBe(true);

      await within(connected.client.close(), BOUND_MS, "close");
      expect(isAlive(grandchild!)).toBe(false);
    });

    it("a server that exits leaving a grandchild holding its pipes still closes, and the grandchild goes", async () => {
      const observed = hostile({ spawnGrandchild: "exit", grandchildHoldsStdio: true }, { processFamily });
      await observed.transport.start();
      watchProcessGroup(observed.transport.pid!);

      await within(observed.closed, BOUND_MS, "onclose");
      expect(observed.transport.closeReason?.exitCode).toBe(0);
      const [grandchild] = parseGrandchildPids(observed.transport.stderrTail);
      expect(grandchild).toBeGreaterThan(0);
      await within(observed.transport.close(), BOUND_MS, "close");
      expect(isAlive(grandchild!)).toBe(false);
    });
  },
);

describe("what the server writes", () => {
  it("skips garbage on stdout, reporting each line, and keeps serving", async () => {
    const connected = await connectClient(hostile({ garbageAtStart: true }));
    const result = await connected.client.callTool({ name: "echo", arguments: { still: "working" } });
    expect(JSON.stringify(result.content)).toContain("working");
    const invalid = stdioErrors(connected.errors, "INVALID_MESSAGE");
    expect(
      invalid.some((error) => error.message.includes("not JSON") && error.message.includes("this is not json at all")),
    ).toBe(true);
    expect(invalid.some((error) => error.message.includes("not a JSON-RPC 2.0 message"))).toBe(true);
  });

  it("drops a result larger than maxMessageBytes, fails that call at once and keeps reading", async () => {
    const connected = await connectClient(hostile({}, { maxMessageBytes: 256 * 1024 }));
    const call = connected.client.callTool({ name: "huge", arguments: { mb: 1 } }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    });
    await expect(within(call, BOUND_MS, "the huge call failing")).rejects.toMatchObject({
      code: MESSAGE_TOO_LARGE_ERROR_CODE,
      data: { reason: "MESSAGE_TOO_LARGE", maxMessageBytes: 256 * 1024 },
    });
    expect(stdioErrors(connected.errors, "MESSAGE_TOO_LARGE")).toHaveLength(1);

    const after = await connected.client.callTool({ name: "echo", arguments: { after: "huge" } });
    expect(JSON.stringify(after.content)).toContain("huge");
  });

  it("keeps only the last stderrBufferBytes of stderr, and streams all of it to onStderr", async () => {
    let streamed = 0;
    const observed = hostile(
      { stderrFloodBytes: 200_000 },
      { stderrBufferBytes: 1024, onStderr: (chunk) => (streamed += chunk.length) },
    );
    await connectClient(observed);
    await waitFor(() => streamed >= 200_000, "the whole flood reaching onStderr");
    expect(Buffer.byteLength(observed.transport.stderrTail)).toBeLessThanOrEqual(1024);
    expect(observed.transport.stderrTail.length).toBeGreaterThan(500);
  });
});
