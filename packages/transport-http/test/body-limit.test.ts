import { describe, expect, it } from "vitest";
import { meterFor, type BodyMeter } from "../src/body-limit.js";

const EVENT_STREAM = new Headers({ "content-type": "text/event-stream" });
const CONTEXT = { transport: "streamable-http" as const, url: "http://127.0.0.1/mcp" };

function eventMeter(maxMessageBytes: number): BodyMeter {
  const meter = meterFor(200, EVENT_STREAM, { ...CONTEXT, maxMessageBytes });
  if (meter?.unit !== "event") throw new Error("expected an event meter");
  return meter;
}

/** Feeds `text` cut at `cuts`; true once any chunk reported the limit exceeded. */
function exceeds(maxMessageBytes: number, text: string, cuts: readonly number[]): boolean {
  const bytes = new TextEncoder().encode(text);
  const meter = eventMeter(maxMessageBytes);
  let over = false;
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (meter.add(bytes.subarray(start, cut))) over = true;
    start = cut;
  }
  return over;
}

/** An event's size: its lines' bytes and one byte per line break between them (CRLF counts once). */
const STREAMS: readonly { name: string; text: string; largest: number }[] = [
  { name: "LF", text: "id: 1\ndata: abcdef\n\nevent: message\ndata: xy\ndata: z\n\n", largest: 31 },
  { name: "CRLF", text: "id: 1\r\ndata: abcdef\r\n\r\nevent: message\r\ndata: xy\r\ndata: z\r\n\r\n", largest: 31 },
  { name: "CR", text: "data: abcdefghij\r\rdata: a\rdata: b\r\r", largest: 16 },
  { name: "a priming event, then one long line", text: `id: 0\ndata:\n\ndata: ${"q".repeat(300)}\n\n`, largest: 306 },
];

describe("the server-sent event meter", () => {
  for (const { name, text, largest } of STREAMS) {
    it(`counts the largest event of a ${name} stream however it is cut into chunks`, () => {
      expect(exceeds(largest, text, [])).toBe(false);
      expect(exceeds(largest - 1, text, [])).toBe(true);
      const length = new TextEncoder().encode(text).length;
      for (let cut = 1; cut < length; cut += 1) {
        expect(exceeds(largest, text, [cut]), `cut at ${cut}`).toBe(false);
        expect(exceeds(largest - 1, text, [cut]), `cut at ${cut}`).toBe(true);
      }
      const everyByte = Array.from({ length: length - 1 }, (_, index) => index + 1);
      expect(exceeds(largest, text, everyByte)).toBe(false);
      expect(exceeds(largest - 1, text, everyByte)).toBe(true);
    });
  }

  it("does not add up events across the empty line between them", () => {
    const event = `data: ${"e".repeat(90)}\n\n`;
    expect(exceeds(96, event.repeat(1_000), [])).toBe(false);
    expect(exceeds(95, event.repeat(1_000), [])).toBe(true);
  });

  it("reports a line over the limit in the chunk where it goes over, before the line ends", () => {
    const meter = eventMeter(10);
    const encoder = new TextEncoder();
    expect(meter.add(encoder.encode("data: 1234"))).toBe(false);
    expect(meter.add(encoder.encode("5"))).toBe(true);
  });
});
