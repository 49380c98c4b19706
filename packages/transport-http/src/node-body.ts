import type { Readable } from "node:stream";
import type { BodyMeter } from "./body-limit.js";
import { DIRECT_BODY_READER, type BodyReader, type BodyReadResult } from "./body-reader.js";

export interface NodeBodyOptions {
  /** The body as the reader gets it (decompressed when the server compressed it). */
  readonly source: Readable;
  /** The connection's own body stream, when `source` is a decompressor piped from it: its errors count too. */
  readonly incoming: Readable;
  readonly meter: BodyMeter | undefined;
  /** The error a body over the limit fails with. */
  readonly overLimit: (meter: BodyMeter) => Error;
  /** The body ended whole: the connection may be reused. */
  readonly onEnd: () => void;
  /** The body failed or was cancelled: the connection must be closed. */
  readonly onBroken: () => void;
}

/** A read waiting for the next chunk. */
interface PendingRead {
  readonly resolve: (result: BodyReadResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A response body read straight from undici's Node stream, with no web stream in between: a chunk
 * that arrives with no read waiting is held (the source paused until it is read), each chunk is
 * counted by the meter, and the body fails like fetch's (TypeError("terminated") when the
 * connection drops, the meter's error past the limit, the abort reason on abort).
 */
export class NodeBody implements BodyReader {
  readonly #options: NodeBodyOptions;
  readonly #held: Uint8Array[] = [];
  #state: "open" | "ended" | "cancelled" | "failed" = "open";
  #error: unknown;
  #waiting: PendingRead | undefined;
  /** Read from or cancelled: what fetch calls disturbed. */
  disturbed = false;

  constructor(options: NodeBodyOptions) {
    this.#options = options;
    const { source, incoming } = options;
    source.on("data", (chunk: Buffer) => this.#arrived(chunk));
    source.once("end", () => this.#ended());
    // `on`, not `once`: a second error event with no listener would crash the host process.
    const terminated = (cause: unknown): void => this.fail(new TypeError("terminated", { cause }));
    source.on("error", terminated);
    if (source !== incoming) incoming.on("error", terminated);
  }

  read(): Promise<BodyReadResult> {
    this.disturbed = true;
    const next = this.#held.shift();
    if (next !== undefined) {
      if (this.#held.length === 0 && this.#state === "open") this.#options.source.resume();
      return Promise.resolve({ done: false, value: next });
    }
    // Like a web stream's reader: the failure as it came (the abort reason, whatever it is).
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (this.#state === "failed") return Promise.reject(this.#error);
    if (this.#state !== "open") return Promise.resolve({ done: true, value: undefined });
    if (this.#waiting !== undefined) return Promise.reject(new TypeError("The body is already being read."));
    this.#options.source.resume();
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  cancel(): Promise<void> {
    this.disturbed = true;
    if (this.#state !== "open") return Promise.resolve();
    this.#state = "cancelled";
    this.#held.length = 0;
    this.#options.onBroken();
    this.#takeWaiting()?.resolve({ done: true, value: undefined });
    return Promise.resolve();
  }

  /** Fails the body (once; nothing happens after it ended): held chunks are dropped and the connection closed. */
  fail(error: unknown): void {
    if (this.#state !== "open") return;
    this.#state = "failed";
    this.#error = error;
    this.#held.length = 0;
    this.#options.onBroken();
    this.#takeWaiting()?.reject(error);
  }

  /** The body as a web stream, for whoever asks for `Response.body`. */
  toWebStream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const chunk = await this.read();
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel: () => this.cancel(),
    });
  }

  #arrived(chunk: Buffer): void {
    if (this.#state !== "open") return;
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const { meter } = this.#options;
    if (meter?.add(bytes) === true) {
      this.fail(this.#options.overLimit(meter));
      return;
    }
    const waiting = this.#takeWaiting();
    if (waiting !== undefined) {
      waiting.resolve({ done: false, value: bytes });
      return;
    }
    this.#held.push(bytes);
    this.#options.source.pause();
  }

  #ended(): void {
    if (this.#state !== "open") return;
    this.#state = "ended";
    this.#options.onEnd();
    this.#takeWaiting()?.resolve({ done: true, value: undefined });
  }

  #takeWaiting(): PendingRead | undefined {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    return waiting;
  }
}

/**
 * Response typed as a class to extend: the DOM typings declare its methods as properties, which a
 * subclass may not override with methods.
 */
const ResponseClass = Response as unknown as new (
  body: null,
  init: ResponseInit,
) => Pick<Response, "status" | "statusText" | "headers">;

/** The Response the direct client resolves with (see DirectResponse), and how its body is given to it. */
export interface DirectResponseParts {
  readonly response: Response;
  /**
   * Gives the response its body, before anyone has it: the body's meter is decided from the
   * response's own headers, so the headers are checked once, by the Response, not also before it.
   */
  readonly attach: (source: NodeBody) => void;
}

export function directResponse(init: ResponseInit): DirectResponseParts {
  const response = new DirectResponse(init);
  return { response: response as unknown as Response, attach: (source) => response.attach(source) };
}

/**
 * The Response the direct client resolves with. Built without a body (so no web stream is made per
 * response), its body is the NodeBody: read directly by the transports (`DIRECT_BODY_READER`,
 * `text()`), and turned into a web stream only when someone asks for `body`, so to everyone else
 * it is an ordinary fetch Response.
 */
class DirectResponse extends ResponseClass {
  // Set by attach() before the response leaves the direct client.
  #source!: NodeBody;
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(init: ResponseInit) {
    super(null, init);
  }

  attach(source: NodeBody): void {
    this.#source = source;
  }

  [DIRECT_BODY_READER](): BodyReader | undefined {
    return this.#stream === undefined ? this.#source : undefined;
  }

  get body(): ReadableStream<Uint8Array> {
    this.#stream ??= this.#source.toWebStream();
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#source.disturbed;
  }

  async text(): Promise<string> {
    if (this.#stream !== undefined) return new Response(this.#stream).text();
    if (this.#source.disturbed) throw new TypeError("Body is unusable: the body has already been read.");
    const chunks: Uint8Array[] = [];
    for (;;) {
      const chunk = await this.#source.read();
      if (chunk.done) break;
      chunks.push(chunk.value);
    }
    return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#asPlainResponse().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.#asPlainResponse().blob();
  }

  formData(): Promise<FormData> {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- kept so the Response stays whole; the transports never call it.
    return this.#asPlainResponse().formData();
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: the body has already been read.");
    const [mine, theirs] = this.body.tee();
    this.#stream = mine;
    return new Response(theirs, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  /** A plain Response around the same body, for the readers fetch has and the transports never use. */
  #asPlainResponse(): Response {
    return new Response(this.body, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}
