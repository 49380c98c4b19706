import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isJsonRpcMessage } from "./json-rpc-envelope.js";

/** The SDK stdio transport's limit on one unfinished line, kept: a client cannot make the gateway buffer more. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * The gateway's stdio server transport: newline-delimited JSON-RPC on stdin/stdout, like the SDK's
 * `StdioServerTransport`, with two costs per message taken out.
 * - Read: each line is `JSON.parse`d once and checked against the JSON-RPC envelope by hand; the
 *   SDK's transport also zod-parses every message against its whole message schema, which the
 *   gateway's tools/call fast path does not need and the SDK Server's handlers repeat anyway.
 * - Write: the messages sent in one tick go to stdout as one string in one write: with many calls in
 *   flight the answers of one read from the upstream leave in one system call instead of one each.
 *   Each message is serialized exactly once; send() resolves when its batch was handed to the
 *   stream, and waits for `drain` when the stream is full, as the SDK's does.
 */
export class BatchedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  #started = false;
  #closed = false;
  #buffered: Buffer | undefined;
  #pending: { text: string; written: Promise<void>; resolve: () => void } | undefined;

  constructor(stdin: Readable, stdout: Writable) {
    this.#stdin = stdin;
    this.#stdout = stdout;
  }

  start(): Promise<void> {
    if (this.#started) throw new Error("The gateway's stdio transport is already started; connect it once.");
    this.#started = true;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    let batch = this.#pending;
    if (batch === undefined) {
      let resolve!: () => void;
      const written = new Promise<void>((done) => (resolve = done));
      batch = { text: "", written, resolve };
      this.#pending = batch;
      process.nextTick(this.#flushPending);
    }
    batch.text += `${JSON.stringify(message)}\n`;
    return batch.written;
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    // Pause stdin only when nothing else reads it, as the SDK's transport does.
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#buffered = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #flushPending = (): void => {
    this.#flush();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    const buffer = this.#buffered === undefined ? bytes : Buffer.concat([this.#buffered, bytes]);
    // Lines are read at offsets into the read's bytes: no Buffer view made per line.
    let start = 0;
    let newline = buffer.indexOf(10);
    while (newline !== -1) {
      this.#receive(
        buffer.toString("utf8", start, newline > start && buffer[newline - 1] === 13 ? newline - 1 : newline),
      );
      start = newline + 1;
      newline = buffer.indexOf(10, start);
    }
    const rest = buffer.length - start;
    if (rest > MAX_LINE_BYTES) {
      this.#buffered = undefined;
      this.onerror?.(
        new Error(
          `A message on stdin exceeded ${MAX_LINE_BYTES} bytes without a newline; the gateway closed the connection.`,
        ),
      );
      void this.close();
      return;
    }
    this.#buffered = rest === 0 ? undefined : buffer.subarray(start);
  };

  #receive(line: string): void {
    if (line.length === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.onerror?.(new Error(`A line on stdin is not JSON (${String(error)}); it was skipped.`));
      return;
    }
    if (!isJsonRpcMessage(message)) {
      this.onerror?.(new Error(`A line on stdin is not a JSON-RPC 2.0 message; it was skipped: ${line.slice(0, 200)}`));
      return;
    }
    this.onmessage?.(message);
  }

  #flush(): void {
    const batch = this.#pending;
    if (batch === undefined) return;
    this.#pending = undefined;
    if (this.#stdout.write(batch.text)) batch.resolve();
    else this.#stdout.once("drain", batch.resolve);
  }
}
