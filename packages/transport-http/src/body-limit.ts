import { HttpTransportError, type HttpTransportKind } from "./errors.js";

export interface BodyLimitContext {
  transport: HttpTransportKind;
  /** Display form of the endpoint, for error messages. */
  url: string;
  maxMessageBytes: number;
}

/** Counts a response body as it arrives. */
export interface BodyMeter {
  /** What the limit applies to: the whole body, or each server-sent event in it. */
  readonly unit: "body" | "event";
  /** Feeds a chunk; true once the body, or one of its events, is over the limit. */
  add(chunk: Uint8Array): boolean;
}

/** MESSAGE_TOO_LARGE for a response from the endpoint; `size` says what was too large. */
export function tooLargeError(context: BodyLimitContext, status: number, size: string): HttpTransportError {
  return new HttpTransportError(
    "MESSAGE_TOO_LARGE",
    `${context.transport === "sse" ? "SSE" : "Streamable HTTP"} response from ${context.url} was refused: ${size} exceeds maxMessageBytes (${context.maxMessageBytes} bytes). Raise maxMessageBytes if such messages are expected.`,
    { transport: context.transport, url: context.url, status },
  );
}

/**
 * How a response body must be counted, decided from its status and headers before any of it is
 * read: a meter, or undefined when there is nothing to count (no body, a redirect, or an
 * unencoded body whose Content-Length is within the limit). Throws MESSAGE_TOO_LARGE when the
 * Content-Length alone is over the limit.
 */
export function meterFor(status: number, headers: Headers, context: BodyLimitContext): BodyMeter | undefined {
  // Redirects are left to the SDK untouched (it inspects and cancels them).
  if (status >= 300 && status < 400) return undefined;
  const limit = context.maxMessageBytes;
  if (isEventStream(headers)) return new EventSizeMeter(limit);
  const declared = declaredLength(headers);
  if (declared !== undefined) {
    if (declared > limit) throw tooLargeError(context, status, `its Content-Length of ${declared} bytes`);
    // HTTP framing makes an unencoded body exactly Content-Length bytes long, so it is within the
    // limit without counting; wrapping every response in a counting stream cost ~90 µs per call.
    if (isIdentityEncoded(headers)) return undefined;
  }
  return new BodySizeMeter(limit);
}

function isEventStream(headers: Headers): boolean {
  return (headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
}

/** The Content-Length as a number, or undefined when it is absent or not a plain byte count. */
function declaredLength(headers: Headers): number | undefined {
  const value = headers.get("content-length");
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** With a Content-Encoding, Content-Length counts compressed bytes and fetch hands out more. */
function isIdentityEncoded(headers: Headers): boolean {
  const encoding = headers.get("content-encoding");
  return encoding === null || encoding.trim() === "" || encoding.trim().toLowerCase() === "identity";
}

class BodySizeMeter implements BodyMeter {
  readonly unit = "body";
  private readonly limit: number;
  private total = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: Uint8Array): boolean {
    this.total += chunk.byteLength;
    return this.total > this.limit;
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the bytes of the current server-sent event; an empty line ends an event. Line breaks are
 * found with `indexOf` (native) and the bytes between them counted as a run: a listing page is one
 * long `data:` line, and a loop over every byte in JavaScript cost more than parsing it.
 */
class EventSizeMeter implements BodyMeter {
  readonly unit = "event";
  private eventBytes = 0;
  private lineBytes = 0;
  private lastWasCr = false;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: Uint8Array): boolean {
    const length = chunk.length;
    let position = 0;
    let over = false;
    // Servers end lines with LF: the CR position is searched once, not once per line.
    let cr = chunk.indexOf(CR);
    while (position < length) {
      if (this.lastWasCr) {
        // CRLF is one line break, even split across chunks.
        this.lastWasCr = false;
        if (chunk[position] === LF) {
          position += 1;
          continue;
        }
      }
      if (cr !== -1 && cr < position) cr = chunk.indexOf(CR, position);
      const lf = chunk.indexOf(LF, position);
      const lineEnd = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      const end = lineEnd === -1 ? length : lineEnd;
      const run = end - position;
      if (run > 0) {
        this.lineBytes += run;
        this.eventBytes += run;
        if (this.eventBytes > this.limit) over = true;
      }
      if (lineEnd === -1) break;
      if (this.lineBytes === 0) {
        this.eventBytes = 0;
      } else {
        this.lineBytes = 0;
        this.eventBytes += 1;
      }
      this.lastWasCr = chunk[lineEnd] === CR;
      position = lineEnd + 1;
    }
    return over;
  }
}
