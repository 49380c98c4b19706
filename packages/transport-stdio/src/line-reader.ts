const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** How much of an oversized line's start and end is kept, to recover the id of a dropped response. */
const EDGE_BYTES = 256;

export interface OversizedLine {
  /** Bytes of the line seen so far (the whole line once `complete`). */
  bytes: number;
  /** The first and last bytes of the line, for recovering its JSON-RPC id. */
  head: string;
  tail: string;
}

export interface LineReaderHandlers {
  onLine(line: string): void;
  /** Called once when a line passes the limit (its bytes are discarded from then on). */
  onOversizedStart(bytesSoFar: number): void;
  /** Called when the oversized line finally ends. */
  onOversizedEnd(line: OversizedLine): void;
}

/**
 * Splits a byte stream into newline-terminated lines, holding at most `maxLineBytes` of a
 * pending line: a longer line is discarded as it streams in, so a hostile server cannot make
 * us buffer unbounded memory.
 */
export class LineReader {
  readonly #maxLineBytes: number;
  readonly #handlers: LineReaderHandlers;
  #parts: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while skipping the rest of an oversized line. */
  #oversized: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(maxLineBytes: number, handlers: LineReaderHandlers) {
    this.#maxLineBytes = maxLineBytes;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      // The common case, a whole line inside one chunk, is decoded in place: no slice, no copy.
      if (
        newline !== -1 &&
        this.#pendingBytes === 0 &&
        this.#oversized === undefined &&
        newline - start <= this.#maxLineBytes
      ) {
        // A CRLF line loses its CR (as #emit does), here without the call.
        const end = newline > start && chunk[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
        // No encoding named: Buffer decodes UTF-8 (its default) without looking the encoding up,
        // which costs two more functions of Node's per line.
        this.#handlers.onLine(chunk.toString(undefined, start, end));
        start = newline + 1;
        continue;
      }
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /** Drops whatever partial line is buffered. */
  clear(): void {
    this.#parts = [];
    this.#pendingBytes = 0;
    this.#oversized = undefined;
  }

  #take(segment: Buffer): void {
    if (segment.length === 0) return;
    if (this.#oversized !== undefined) {
      this.#oversized.bytes += segment.length;
      this.#oversized.tail = keepLast(Buffer.concat([this.#oversized.tail, segment]), EDGE_BYTES);
      return;
    }
    if (this.#pendingBytes + segment.length <= this.#maxLineBytes) {
      this.#parts.push(segment);
      this.#pendingBytes += segment.length;
      return;
    }
    const seen = Buffer.concat([...this.#parts, segment]);
    this.#oversized = {
      bytes: seen.length,
      head: Buffer.from(seen.subarray(0, EDGE_BYTES)),
      tail: Buffer.from(keepLast(seen, EDGE_BYTES)),
    };
    this.#parts = [];
    this.#pendingBytes = 0;
    this.#handlers.onOversizedStart(this.#oversized.bytes);
  }

  #endLine(): void {
    const oversized = this.#oversized;
    if (oversized !== undefined) {
      this.#oversized = undefined;
      this.#handlers.onOversizedEnd({
        bytes: oversized.bytes,
        head: oversized.head.toString("utf8"),
        tail: oversized.tail.toString("utf8"),
      });
      return;
    }
    const line = Buffer.concat(this.#parts, this.#pendingBytes).toString("utf8");
    this.#parts = [];
    this.#pendingBytes = 0;
    this.#emit(line);
  }

  #emit(line: string): void {
    this.#handlers.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  }
}

function keepLast(buffer: Buffer, bytes: number): Buffer {
  return buffer.length <= bytes ? buffer : buffer.subarray(buffer.length - bytes);
}
