import { describe, expect, it } from "vitest";
import {
  clampTimer,
  isParsedFromWire,
  isRecord,
  markParsedFromWire,
  MAX_TIMER_MS,
  positiveOr,
  timerDelayOr,
} from "@mcp-tool-adapter/core/value-rules";

describe("positiveOr", () => {
  it("keeps a number above zero, Infinity included (no limit)", () => {
    expect(positiveOr(1, 5)).toBe(1);
    expect(positiveOr(0.5, 5)).toBe(0.5);
    expect(positiveOr(3_000_000_000, 5)).toBe(3_000_000_000);
    expect(positiveOr(Number.POSITIVE_INFINITY, 5)).toBe(Number.POSITIVE_INFINITY);
  });

  it("falls back for undefined, zero, negative numbers, -Infinity and NaN", () => {
    for (const value of [undefined, 0, -0, -1, Number.NEGATIVE_INFINITY, Number.NaN]) {
      expect(positiveOr(value, 5)).toBe(5);
    }
  });
});

describe("timer delays", () => {
  it("caps a delay at the longest setTimeout honours, so a long one waits instead of firing at once", () => {
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    expect(clampTimer(10)).toBe(10);
    expect(clampTimer(MAX_TIMER_MS + 1)).toBe(MAX_TIMER_MS);
    expect(clampTimer(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
  });

  it("takes an option's delay by the positive-number rule, then caps it", () => {
    expect(timerDelayOr(250, 60_000)).toBe(250);
    expect(timerDelayOr(undefined, 60_000)).toBe(60_000);
    expect(timerDelayOr(Number.NaN, 60_000)).toBe(60_000);
    expect(timerDelayOr(-5, 60_000)).toBe(60_000);
    expect(timerDelayOr(Number.POSITIVE_INFINITY, 60_000)).toBe(MAX_TIMER_MS);
    expect(timerDelayOr(1e12, 60_000)).toBe(MAX_TIMER_MS);
  });
});

describe("isRecord", () => {
  it("is true for plain and null-prototype objects and class instances", () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(new Date(0))).toBe(true);
  });

  it("is false for null, arrays and every non-object", () => {
    for (const value of [null, undefined, [], [1], "x", 1, true, Symbol("s"), () => undefined]) {
      expect(isRecord(value)).toBe(false);
    }
  });
});

describe("markParsedFromWire", () => {
  it("marks the object it is given, and only that one", () => {
    const parsed = JSON.parse('{"tools":[{"name":"echo"}]}') as { tools: object[] };
    const other = { tools: [] };
    markParsedFromWire(parsed);
    expect(isParsedFromWire(parsed)).toBe(true);
    expect(isParsedFromWire(parsed.tools[0])).toBe(false);
    expect(isParsedFromWire(other)).toBe(false);
  });

  it("ignores values that are not objects, and results that list no tools (nothing keeps them whole)", () => {
    for (const value of [null, undefined, 1, "text", true, JSON.parse('{"content":[]}'), JSON.parse('{"tools":{}}')]) {
      markParsedFromWire(value);
      expect(isParsedFromWire(value)).toBe(false);
    }
  });
});
