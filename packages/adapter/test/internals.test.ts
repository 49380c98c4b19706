import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exceedsJsonBytes, normalizeCallResult } from "../src/call-result.js";
import { SerialQueue } from "../src/serial-queue.js";
import { compileToolFilter } from "../src/tool-filter.js";

describe("compileToolFilter", () => {
  it("compiles any pattern and matches a name without wildcards only literally", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (pattern, other) => {
        const filter = compileToolFilter({ include: [pattern] });
        if (!/[*?]/.test(pattern)) {
          expect(filter.matches(pattern)).toBe(true);
          expect(filter.matches(other)).toBe(other === pattern);
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it("* matches any run, ? exactly one character", () => {
    const filter = compileToolFilter({ include: ["a*z", "b?"] });
    expect(["az", "abcz", "bx"].every((n) => filter.matches(n))).toBe(true);
    expect(["a", "b", "bxy", "xaz"].some((n) => filter.matches(n))).toBe(false);
  });
});

describe("exceedsJsonBytes", () => {
  it("agrees with the UTF-8 size of JSON.stringify within small slack", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const bytes = Buffer.byteLength(JSON.stringify(value), "utf8");
        // Never flags a value well under the limit, always flags one well over it.
        expect(exceedsJsonBytes(value, bytes * 2 + 16)).toBe(false);
        // Escaping (\u0000 is 6 bytes of JSON for 1 of payload) is the only thing not counted.
        if (bytes > 64) expect(exceedsJsonBytes(value, Math.floor(bytes / 7))).toBe(true);
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it("stops early on a huge value and survives cycles", () => {
    const huge = { content: Array.from({ length: 100_000 }, () => ({ type: "text", text: "x".repeat(100) })) };
    expect(exceedsJsonBytes(huge, 1_000)).toBe(true);
    const cyclic: Record<string, unknown> = { a: "b" };
    cyclic.self = cyclic;
    expect(exceedsJsonBytes(cyclic, 1_000)).toBe(false);
  });
});

describe("normalizeCallResult", () => {
  it("always yields a content list and keeps the rest", () => {
    expect(normalizeCallResult([{ type: "text", text: "a" }])).toEqual({ content: [{ type: "text", text: "a" }] });
    expect(normalizeCallResult(null)).toEqual({ content: [] });
    expect(normalizeCallResult("plain")).toEqual({ content: [{ type: "text", text: "plain" }] });
    expect(normalizeCallResult({ content: { type: "text", text: "one" }, x: 1 })).toEqual({
      content: [{ type: "text", text: "one" }],
      x: 1,
    });
    expect(normalizeCallResult({ toolResult: "done" })).toEqual({
      toolResult: "done",
      content: [{ type: "text", text: "done" }],
    });
    expect(normalizeCallResult({ structuredContent: { a: 1 } })).toEqual({ structuredContent: { a: 1 }, content: [] });
    // The SDK v2 client fills in `content: []` on the 2024-10-07 shape; the toolResult still wins.
    expect(normalizeCallResult({ content: [], toolResult: ["a", "b"] })).toEqual({
      content: ["a", "b"],
      toolResult: ["a", "b"],
    });
    const current = { content: [], structuredContent: {} };
    expect(normalizeCallResult(current)).toBe(current); // no copy on the hot path
  });
});

describe("SerialQueue", () => {
  it("runs jobs one at a time in order, and a failure does not stop the next", async () => {
    const queue = new SerialQueue<"a" | "b">();
    const log: string[] = [];
    const job =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
      };
    const first = queue.run("a", job("1", true));
    const second = queue.run("b", job("2"));
    expect(queue.tail?.kind).toBe("b");
    await expect(first).rejects.toThrow("1");
    await second;
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2"]);
    expect(queue.idle).toBe(true);
    expect(queue.tail).toBeUndefined();
  });
});
