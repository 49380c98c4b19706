import { describe, expect, it } from "vitest";
import { SseParser, type ServerSentEvent } from "../src/sse-parser.js";

function parse(chunks: (string | Uint8Array)[]): { events: ServerSentEvent[]; retries: number[] } {
  const events: ServerSentEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms) });
  const encoder = new TextEncoder();
  for (const chunk of chunks) parser.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
  parser.end();
  return { events, retries };
}

describe("the event-stream parser", () => {
  it("reads the fields of the spec, with LF, CRLF and CR line ends", () => {
    const { events, retries } = parse([
      "\uFEFFid: 1\r\nevent: message\rdata: a\ndata:b\r\n: comment\n\nretry: 250\nretry: x\nid\ndata\n\n",
    ]);
    expect(events).toEqual([
      { id: "1", type: "message", data: "a\nb" },
      { id: "", type: undefined, data: "" },
    ]);
    expect(retries).toEqual([250]);
  });

  it("joins a line cut anywhere, a CRLF cut between its two bytes and a character cut between its bytes", () => {
    const euro = new TextEncoder().encode("data: €\r\n\r\n");
    const { events } = parse(["da", 'ta: {"a"', ":1}\r", "\n\r", "\n", euro.slice(0, 8), euro.slice(8)]);
    expect(events).toEqual([
      { id: undefined, type: undefined, data: '{"a":1}' },
      { id: undefined, type: undefined, data: "€" },
    ]);
  });

  it("keeps a priming event (an id and an empty data line) and an id-only event, and drops an unfinished one", () => {
    const { events } = parse(["id: p\ndata:\n\nid: q\n\ndata: lost"]);
    expect(events).toEqual([
      { id: "p", type: undefined, data: "" },
      { id: "q", type: undefined, data: "" },
    ]);
  });

  it("reads a multi-megabyte line that arrives in small chunks", () => {
    const payload = "x".repeat(4 * 1024 * 1024);
    const text = `data: ${payload}\n\n`;
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += 16 * 1024) chunks.push(text.slice(at, at + 16 * 1024));
    const { events } = parse(chunks);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.length).toBe(payload.length);
  });
});
