import { once } from "node:events";
import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

// Fault-injecting SDK Transports. Each one is a real `Transport` (or a factory of them) that
// misbehaves in one named way, so a client under test meets the fault exactly where a real
// network or process would put it — no fake of the client's own internals.

/** Something that hands out a fresh Transport per connection attempt (an adapter transport factory). */
export type TransportSource = () => Transport | Promise<Transport>;

/** An Error carrying a Node-style `code`, like the ones `net` and `child_process` raise. */
export interface CodedError extends Error {
  code: string;
}

/** An error shaped like Node's refusal of a TCP connect: `code` ECONNREFUSED, "connect ECONNREFUSED <address>". */
export function connectionRefusedError(address = "127.0.0.1:9"): CodedError {
  return Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: "ECONNREFUSED" });
}

/** A Transport whose `start()` rejects with a connection-refused error; nothing is ever sent. */
export class RefusingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  startAttempts = 0;
  readonly #error: Error;

  constructor(error: Error = connectionRefusedError()) {
    this.#error = error;
  }

  start(): Promise<void> {
    this.startAttempts += 1;
    return Promise.reject(this.#error);
  }

  send(): Promise<void> {
    return Promise.reject(new Error("RefusingTransport: cannot send, the connection was refused"));
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}

export function createRefusingTransport(error?: Error): RefusingTransport {
  return new RefusingTransport(error);
}

/** Where a hanging transport stops: in `start()` itself, or after start by never answering `initialize`. */
export type HangPoint = "start" | "initialize";

/**
 * A Transport that never completes a connection. With `hangOn: "start"` the `start()` promise
 * stays pending until `close()`, which then rejects it (so nothing is left dangling); with
 * `hangOn: "initialize"` start succeeds but every message is swallowed unanswered.
 * `close()` always works and fires `onclose`, as a client's timeout path needs.
 */
export class HangingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly hangOn: HangPoint;
  /** Messages the client sent (and that were never answered). */
  readonly sent: JSONRPCMessage[] = [];
  #closed = false;
  #rejectStart?: (error: Error) => void;

  constructor(hangOn: HangPoint = "start") {
    this.hangOn = hangOn;
  }

  get closed(): boolean {
    return this.#closed;
  }

  start(): Promise<void> {
    if (this.hangOn === "initialize") return Promise.resolve();
    return new Promise<void>((_resolve, reject) => {
      this.#rejectStart = reject;
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("HangingTransport: closed"));
    this.sent.push(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#rejectStart?.(new Error("HangingTransport: closed while connecting"));
    this.#rejectStart = undefined;
    this.onclose?.();
    return Promise.resolve();
  }
}

export function createHangingTransport(hangOn?: HangPoint): HangingTransport {
  return new HangingTransport(hangOn);
}

/**
 * Passes everything through to an inner Transport; subclasses override one method to inject a
 * fault. The inner transport's callbacks are re-pointed at this wrapper's in `start()`, since
 * an SDK client sets `onmessage`/`onclose`/`onerror` on the object it was given.
 */
export class TransportDecorator implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  protected readonly inner: Transport;

  constructor(inner: Transport) {
    this.inner = inner;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  /** A message from the server on its way to the client; override to alter or drop it. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Closes the inner transport (so its resources are released), then rejects with `error`. */
export class CloseErrorTransport extends TransportDecorator {
  readonly #error: Error;

  constructor(inner: Transport, error: Error = new Error("injected fault: transport close failed")) {
    super(inner);
    this.#error = error;
  }

  override async close(): Promise<void> {
    await this.inner.close();
    throw this.#error;
  }
}

export function withCloseError(inner: Transport, error?: Error): CloseErrorTransport {
  return new CloseErrorTransport(inner, error);
}

/** How a tool call meets the transport fault: the send itself rejects, or the connection drops. */
export type CallFaultMode = "send-rejects" | "disconnect";

export interface CallFaultOptions {
  /** The tool (or a test on tool names) whose `tools/call` trips the fault. */
  tool: string | ((toolName: string) => boolean);
  /** Default "send-rejects". */
  mode?: CallFaultMode;
  error?: Error;
}

/**
 * Lets every message through except a `tools/call` for the chosen tool: that send rejects
 * with a generic Error ("send-rejects"), or the transport reports the error and closes while
 * the call is in flight ("disconnect"). The call never reaches the server either way.
 */
export class CallFaultTransport extends TransportDecorator {
  /** How many calls tripped the fault. */
  trips = 0;
  readonly #matches: (toolName: string) => boolean;
  readonly #mode: CallFaultMode;
  readonly #error: Error;

  constructor(inner: Transport, options: CallFaultOptions) {
    super(inner);
    const { tool } = options;
    this.#matches = typeof tool === "string" ? (name) => name === tool : tool;
    this.#mode = options.mode ?? "send-rejects";
    this.#error = options.error ?? new Error("injected fault: transport failed during tools/call");
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const toolName = calledToolName(message);
    if (toolName === undefined || !this.#matches(toolName)) return this.inner.send(message, options);
    this.trips += 1;
    if (this.#mode === "send-rejects") throw this.#error;
    // Disconnect after the send "succeeded", as a dropped socket would: the call is in flight.
    queueMicrotask(() => {
      this.onerror?.(this.#error);
      void this.inner.close().catch(() => undefined);
    });
  }
}

export function withCallFault(inner: Transport, options: CallFaultOptions): CallFaultTransport {
  return new CallFaultTransport(inner, options);
}

function calledToolName(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) return undefined;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? name : undefined;
}

export interface CallResultRewriteOptions {
  /** The tool (or a test on tool names) whose results are rewritten. */
  tool: string | ((toolName: string) => boolean);
  /** Turns the server's result into what the client receives, e.g. `{ toolResult: ... }`. */
  rewrite: (result: Record<string, unknown>) => unknown;
}

/**
 * Rewrites the `tools/call` results of the chosen tool on their way to the client: how a test
 * meets result shapes the SDK's server refuses to send, such as the 2024-10-07 `toolResult`
 * shape or a result without `content`. (A non-object result, e.g. a bare content list, never
 * reaches the SDK client's request: its Protocol drops it as an unknown message.)
 */
export class CallResultRewriteTransport extends TransportDecorator {
  readonly #matches: (toolName: string) => boolean;
  readonly #rewrite: (result: Record<string, unknown>) => unknown;
  readonly #pending = new Set<string | number>();

  constructor(inner: Transport, options: CallResultRewriteOptions) {
    super(inner);
    const { tool } = options;
    this.#matches = typeof tool === "string" ? (name) => name === tool : tool;
    this.#rewrite = options.rewrite;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const toolName = calledToolName(message);
    if (toolName !== undefined && this.#matches(toolName) && "id" in message && message.id !== undefined)
      this.#pending.add(message.id);
    return this.inner.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ("id" in message && "result" in message && this.#pending.delete(message.id)) {
      // The rewritten result may break the JSON-RPC types on purpose: that is the point.
      const rewritten = { ...message, result: this.#rewrite(message.result) } as unknown as JSONRPCMessage;
      this.onmessage?.(rewritten, extra);
      return;
    }
    if ("id" in message && "error" in message && message.id !== undefined) this.#pending.delete(message.id);
    this.onmessage?.(message, extra);
  }
}

export function withCallResultRewrite(inner: Transport, options: CallResultRewriteOptions): CallResultRewriteTransport {
  return new CallResultRewriteTransport(inner, options);
}

/** A transport factory that also counts how often it was asked for a transport. */
export interface CountingTransportSource {
  (): Promise<Transport>;
  readonly attempts: number;
}

/**
 * A transport factory whose first `successfulConnects` calls delegate to `source` and whose
 * later calls hand out refusing transports — a server that went away after the first session.
 */
export function failAfterConnects(
  source: TransportSource,
  successfulConnects = 1,
  error?: Error,
): CountingTransportSource {
  let attempts = 0;
  const factory = async (): Promise<Transport> => {
    attempts += 1;
    if (attempts <= successfulConnects) return source();
    return new RefusingTransport(error ?? connectionRefusedError());
  };
  return Object.defineProperty(factory, "attempts", { get: () => attempts }) as CountingTransportSource;
}

/** A TCP relay on 127.0.0.1 in front of a server: a fixed address whose backend can change or drop. */
export interface TcpRelay {
  /** The relay's own port; point clients at it instead of the server's. */
  readonly port: number;
  /** Where new connections are forwarded. */
  readonly targetPort: number;
  /** Forwards later connections to another port (a restarted server) and cuts the open ones. */
  retarget(targetPort: number): void;
  /** Destroys every open connection on both sides, as a dropped network would. */
  cutConnections(): void;
  /** Cuts every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a relay on a free 127.0.0.1 port forwarding to `targetPort`. Lets a test restart a
 * server on a new port while clients keep the same URL, or cut live connections at will.
 */
export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  let target = targetPort;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const cutConnections = (): void => {
    for (const socket of sockets) socket.destroy();
  };

  const server = createServer((downstream) => {
    const upstream = connect({ host: "127.0.0.1", port: target });
    track(downstream);
    track(upstream);
    // Either side failing or closing ends the pair: the client sees what a dead server looks like.
    const end = (): void => {
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    downstream.pipe(upstream);
    upstream.pipe(downstream);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    port,
    get targetPort() {
      return target;
    },
    retarget(next) {
      target = next;
      cutConnections();
    },
    cutConnections,
    async close() {
      cutConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
