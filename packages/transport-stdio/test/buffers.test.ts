import { describe, expect, it } from "vitest";
import { LineReader, type OversizedLine } from "../src/line-reader.js";
import { MESSAGE_TOO_LARGE_ERROR_CODE } from "../src/index.js";
import { oversizedResponseError } from "../src/oversized-response.js";
import { StderrLines, StderrTail } from "../src/stderr-tail.js";

function reader(maxLineBytes: number): {
  reader: LineReader;
  lines: string[];
  started: number[];
  ended: OversizedLine[];
} {
  const lines: string[] = [];
  const started: number[] = [];
  const ended: OversizedLine[] = [];
  return {
    reader: new LineReader(maxLineBytes, {
      onLine: (line) => lines.push(line),
      onOversizedStart: (bytes) => started.push(bytes),
      onOversizedEnd: (line) => ended.push(line),
    }),
    lines,
    started,
    ended,
  };
}

describe("LineReader", () => {
  it("joins lines split across chunks, including a multi-byte character, and strips CR", () => {
    const { reader: r, lines } = reader(100);
    const bytes = Buffer.from("first\r\nsecond ✓ line\nthi");
    r.push(bytes.subarray(0, 17)); // splits the 3-byte check mark
    r.push(bytes.subarray(17));
    r.push(Buffer.from("rd\n"));
    expect(lines).toEqual(["first", "second ✓ line", "third"]);
  });

  it("reads whole lines inside one chunk with the same limit as split ones", () => {
    const { reader: r, lines, started } = reader(10);
    r.push(Buffer.from("a\r\n\n0123456789\n0123456789X\nlast ✓\n"));
    expect(lines).toEqual(["a", "", "0123456789", "last ✓"]);
    expect(started).toEqual([11]);
  });

  it("drops a line over the limit without holding it, then reads the next line", () => {
    const { reader: r, lines, started, ended } = reader(10);
    r.push(Buffer.from("ok\n0123456"));
    r.push(Buffer.from("789abcdef"));
    r.push(Buffer.from("x".repeat(1000)));
    expect(started).toEqual([16]);
    r.push(Buffer.from("END\nnext\n"));
    expect(lines).toEqual(["ok", "next"]);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.bytes).toBe(16 + 1000 + 3);
    expect(ended[0]!.head.startsWith("0123456789abcdef")).toBe(true);
    expect(ended[0]!.tail.endsWith("xxxEND")).toBe(true);
    expect(ended[0]!.tail.length).toBeLessThanOrEqual(256);
  });

  it("accepts a line of exactly the limit", () => {
    const { reader: r, lines, started } = reader(5);
    r.push(Buffer.from("12345\n"));
    expect(lines).toEqual(["12345"]);
    expect(started).toEqual([]);
  });
});

describe("oversizedResponseError", () => {
  const line = (head: string, tail: string): OversizedLine => ({ bytes: 5000, head, tail });

  it("recovers the id of a TypeScript-SDK response (id last)", () => {
    const answer = oversizedResponseError(
      line('{"result":{"content":[{"type":"text","text":"aaaa', 'aaaa"}]},"jsonrpc":"2.0","id":42}'),
      100,
    );
    expect(answer).toMatchObject({
      jsonrpc: "2.0",
      id: 42,
      error: {
        code: MESSAGE_TOO_LARGE_ERROR_CODE,
        data: { reason: "MESSAGE_TOO_LARGE", bytes: 5000, maxMessageBytes: 100 },
      },
    });
  });

  it("recovers a string id given first", () => {
    expect(
      oversizedResponseError(line('{"jsonrpc":"2.0","id":"req-1","result":{"x":"aaa', 'aaa"}}'), 100),
    ).toMatchObject({ id: "req-1" });
  });

  it("does not answer a server request or a line it cannot read", () => {
    expect(
      oversizedResponseError(
        line('{"method":"sampling/createMessage","params":{"a":"', '"},"jsonrpc":"2.0","id":3}'),
        100,
      ),
    ).toBeUndefined();
    expect(oversizedResponseError(line('{"result":{"nested":{"id":1', '"id":1}}'), 100)).toBeUndefined();
    expect(oversizedResponseError(line("garbage", "garbage"), 100)).toBeUndefined();
  });
});

describe("StderrTail", () => {
  it("keeps only the last bytes", () => {
    const tail = new StderrTail(8);
    tail.append(Buffer.from("abcdef"));
    tail.append(Buffer.from("ghijkl"));
    expect(tail.text).toBe("efghijkl");
    tail.append(Buffer.from("0123456789"));
    expect(tail.text).toBe("23456789");
  });

  it("does not start with half a character", () => {
    const tail = new StderrTail(4);
    tail.append(Buffer.from("a✓✓")); // 1 + 3 + 3 bytes; the last 4 start inside the first check mark
    expect(tail.text).toBe("✓");
  });
});

describe("StderrLines", () => {
  it("splits decoded text into lines and flushes the rest", () => {
    const lines = new StderrLines(50);
    expect(lines.push(Buffer.from("one\r\ntw"))).toEqual({ text: "one\r\ntw", lines: ["one"] });
    expect(lines.push(Buffer.from("o\nthree")).lines).toEqual(["two"]);
    expect(lines.flush()).toBe("three");
    expect(lines.flush()).toBeUndefined();
  });

  it("cuts a runaway line", () => {
    const lines = new StderrLines(10);
    expect(lines.push(Buffer.from("x".repeat(25))).lines).toEqual(["x".repeat(25)]);
  });
});
