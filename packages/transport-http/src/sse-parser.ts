/** One server-sent event, as the 2025-11-25 Streamable HTTP transport uses them. */
export interface ServerSentEvent {
  /** The `event` field; undefined means "message". */
  readonly type: string | undefined;
  /** The data lines joined with "\n" ("" for a priming event with an empty `data:`). */
  readonly data: string;
  /** The `id` field when this event set one. */
  readonly id: string | undefined;
}

export interface SseParserListeners {
  onEvent(event: ServerSentEvent): void;
  /** A `retry` field: the reconnection delay the server asks for, in milliseconds. */
  onRetry(milliseconds: number): void;
}

/**
 * Parses a `text/event-stream` body incrementally (WHATWG HTML, "event stream interpretation"):
 * lines end with CRLF, LF or CR; `data`, `event`, `id` and `retry` fields; `:` comments; an empty
 * line dispatches an event that had at least one `data` line. A line may span any number of chunks
 * (a listing of 5,000 tools is one multi-megabyte `data` line): the text of an unfinished line is
 * kept as parts and joined once, so a long line costs linear time.
 */
export class SseParser {
  private readonly listeners: SseParserListeners;
  private readonly decoder = new TextDecoder();
  private parts: string[] = [];
  /** The previous chunk ended with CR: an LF first in the next one belongs to it. */
  private afterCr = false;
  private firstLine = true;
  private data: string[] = [];
  private type: string | undefined;
  private id: string | undefined;

  constructor(listeners: SseParserListeners) {
    this.listeners = listeners;
  }

  /** Feeds bytes of the body. */
  push(bytes: Uint8Array): void {
    this.pushText(this.decoder.decode(bytes, { stream: true }));
  }

  /** The body ended: a last line without a line break is dropped, as is an undispatched event. */
  end(): void {
    this.pushText(this.decoder.decode());
    this.parts = [];
    this.resetEvent();
  }

  private pushText(text: string): void {
    let start = 0;
    if (this.afterCr && text.charCodeAt(0) === LF) start = 1;
    this.afterCr = false;
    const length = text.length;
    // Servers end lines with LF: the CR position is searched once, not once per line.
    let cr = text.indexOf("\r", start);
    while (start < length) {
      if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
      const lf = text.indexOf("\n", start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) {
        this.parts.push(start === 0 ? text : text.slice(start));
        return;
      }
      let line = text.slice(start, end);
      if (this.parts.length > 0) {
        this.parts.push(line);
        line = this.parts.join("");
        this.parts = [];
      }
      this.line(line);
      if (text.charCodeAt(end) === CR) {
        if (end + 1 === length) {
          this.afterCr = true;
          return;
        }
        start = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
    }
  }

  private line(raw: string): void {
    // A byte order mark may start the stream; it is not part of the first field name.
    const line = this.firstLine && raw.charCodeAt(0) === BOM ? raw.slice(1) : raw;
    this.firstLine = false;
    if (line === "") {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === SPACE) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.type = value;
        break;
      case "id":
        if (!value.includes("\0")) this.id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.listeners.onRetry(Number(value));
        break;
      default:
        break;
    }
  }

  private dispatch(): void {
    if (this.data.length === 0) {
      // An event without data is not dispatched, but its id still counts: a priming event of
      // servers that omit the empty `data:` line would otherwise be lost.
      if (this.id !== undefined) this.listeners.onEvent({ type: this.type, data: "", id: this.id });
      this.resetEvent();
      return;
    }
    const data = this.data.length === 1 ? (this.data[0] ?? "") : this.data.join("\n");
    const event: ServerSentEvent = { type: this.type === "" ? undefined : this.type, data, id: this.id };
    this.resetEvent();
    this.listeners.onEvent(event);
  }

  private resetEvent(): void {
    this.data = [];
    this.type = undefined;
    this.id = undefined;
  }
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = 0xfeff;
