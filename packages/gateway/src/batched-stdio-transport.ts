import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { SENT_AT_ONCE } from "@mcp-tool-adapter/core";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
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
 *   The answer to the last request the client still waits for is not held for the end of the tick:
 *   it leaves at once, with whatever the tick had batched before it (a sequential call's answer
 *   then costs no tick and no promise of its own; send() returns core's SENT_AT_ONCE). Each message
 *   is serialized exactly once; send() resolves when its batch was handed to the stream, and waits
 *   for `drain` when the stream is full, as the SDK's does.
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
  /**
   * The client's requests not answered yet, by id: while one waits, another answer may still come
   * in this tick, so an answer joins the tick's batch; the answer that empties it leaves at once.
   * A request the client cancels leaves it too (no answer follows a cancellation). One that never
   * gets an answer only costs the later answers the end-of-tick wait they always had.
   */
  readonly #awaitingAnswer = new Set<RequestId>();

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
    const awaiting = this.#awaitingAnswer;
    // The answer to the last request waiting (a sequential call's): written now, with the tick's
    // batch before it. Only an answer: a request of the gateway's own may reuse a client's id.
    if (
      awaiting.size > 0 &&
      !("method" in message) &&
      awaiting.delete((message as { id?: RequestId }).id as RequestId) &&
      awaiting.size === 0
    )
      return this.#writeNow(`${JSON.stringify(message)}\n`);
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
    this.#awaitingAnswer.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #flushPending = (): void => {
    this.#flush();
  };

  /** `text` after whatever this tick batched, in one write; SENT_AT_ONCE when the stream took it without waiting. */
  #writeNow(text: string): Promise<void> {
    const batch = this.#pending;
    if (batch !== undefined) {
      this.#pending = undefined;
      batch.text += text;
      this.#write(batch);
      return batch.written;
    }
    if (this.#stdout.write(text)) return SENT_AT_ONCE;
    return new Promise((resolve) => this.#stdout.once("drain", () => resolve()));
  }

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
    this.#noteAwaited(message);
    this.onmessage?.(message);
  }

  /** A request starts waiting for its answer; a cancellation ends the wait of the request it names. */
  #noteAwaited(message: JSONRPCMessage): void {
    if (!("method" in message)) return;
    if ("id" in message) this.#awaitingAnswer.add(message.id);
    else if (message.method === "notifications/cancelled" && isRecord(message.params))
      this.#awaitingAnswer.delete(message.params.requestId as RequestId);
  }

  #flush(): void {
    const batch = this.#pending;
    if (batch === undefined) return;
    this.#pending = undefined;
    this.#write(batch);
  }

  #write(batch: { text: string; resolve: () => void }): void {
    if (this.#stdout.write(batch.text)) batch.resolve();
    else this.#stdout.once("drain", batch.resolve);
  }
}
