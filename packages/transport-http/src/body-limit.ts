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

/** Counts the bytes of the current server-sent event; an empty line ends an event. */
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
    let largest = 0;
    for (const byte of chunk) {
      if (byte === LF && this.lastWasCr) {
        this.lastWasCr = false;
        continue;
      }
      this.lastWasCr = byte === CR;
      if (byte === LF || byte === CR) {
        if (this.lineBytes === 0) {
          this.eventBytes = 0;
        } else {
          this.lineBytes = 0;
          this.eventBytes += 1;
        }
        continue;
      }
      this.lineBytes += 1;
      this.eventBytes += 1;
      if (this.eventBytes > largest) largest = this.eventBytes;
    }
    return largest > this.limit;
  }
}
