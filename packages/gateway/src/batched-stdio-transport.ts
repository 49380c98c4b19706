import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK's stdio server transport, with the messages sent in one tick written to stdout as one
 * string in one write: with many calls in flight the answers of one read from the upstream leave
 * in one system call instead of one each (the pipe write was the gateway's largest cost per call
 * in a CPU profile). Each message is still serialized exactly once; send() resolves when its
 * batch was handed to the stream, and waits for `drain` when the stream is full, as the SDK's does.
 */
export class BatchedStdioServerTransport extends StdioServerTransport {
  readonly #stdout: Writable;
  #pending: { text: string; written: Promise<void>; resolve: () => void } | undefined;

  constructor(stdin: Readable, stdout: Writable) {
    super(stdin, stdout);
    this.#stdout = stdout;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    let batch = this.#pending;
    if (batch === undefined) {
      let resolve!: () => void;
      const written = new Promise<void>((done) => (resolve = done));
      batch = { text: "", written, resolve };
      this.#pending = batch;
      process.nextTick(() => this.#flush());
    }
    batch.text += serializeMessage(message);
    return batch.written;
  }

  #flush(): void {
    const batch = this.#pending;
    if (batch === undefined) return;
    this.#pending = undefined;
    if (this.#stdout.write(batch.text)) batch.resolve();
    else this.#stdout.once("drain", batch.resolve);
  }
}
