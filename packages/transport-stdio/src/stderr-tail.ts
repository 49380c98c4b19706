import { StringDecoder } from "node:string_decoder";

/** Keeps only the last `capacityBytes` of a stream, for error messages after a crash. */
export class StderrTail {
  readonly #capacityBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(capacityBytes: number) {
    this.#capacityBytes = capacityBytes;
  }

  append(chunk: Buffer): void {
    if (this.#capacityBytes <= 0) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#bytes > this.#capacityBytes) {
      const first = this.#chunks[0];
      if (first === undefined) break;
      const excess = this.#bytes - this.#capacityBytes;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#bytes -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#bytes -= excess;
      }
    }
  }

  get text(): string {
    const text = Buffer.concat(this.#chunks, this.#bytes).toString("utf8");
    // Trimming by bytes can cut a multi-byte character in half at the start.
    return text.replace(/^\uFFFD{1,3}/, "");
  }
}

/** Splits decoded stderr into lines for a logger, capping a runaway line at `maxLineChars`. */
export class StderrLines {
  readonly #decoder = new StringDecoder("utf8");
  readonly #maxLineChars: number;
  #partial = "";

  constructor(maxLineChars = 8192) {
    this.#maxLineChars = maxLineChars;
  }

  /** Returns the decoded text of the chunk and the lines it completed. */
  push(chunk: Buffer): { text: string; lines: string[] } {
    const text = this.#decoder.write(chunk);
    const pieces = (this.#partial + text).split("\n");
    this.#partial = pieces.pop() ?? "";
    const lines = pieces.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
    if (this.#partial.length > this.#maxLineChars) {
      lines.push(this.#partial);
      this.#partial = "";
    }
    return { text, lines };
  }

  /** The unterminated last line, when the stream ends. */
  flush(): string | undefined {
    const rest = this.#partial + this.#decoder.end();
    this.#partial = "";
    return rest === "" ? undefined : rest;
  }
}
