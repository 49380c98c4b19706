import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { describeCause } from "../src/index.js";

describe("describeCause", () => {
  it("gives an error's message, or its name when the message is empty", () => {
    expect(describeCause(new Error("disk full"))).toBe("disk full");
    expect(describeCause(new TypeError(""))).toBe("TypeError");
  });

  it("recognises an error from another realm", () => {
    expect(describeCause(runInNewContext('new RangeError("out of range")'))).toBe("out of range");
  });

  it("gives strings as they are, objects as JSON and the rest as String gives them", () => {
    expect(describeCause("plain text")).toBe("plain text");
    expect(describeCause({ code: 7, reason: "no" })).toBe('{"code":7,"reason":"no"}');
    expect(describeCause([1, "two"])).toBe('[1,"two"]');
    expect(describeCause(new URL("http://127.0.0.1/mcp"))).toBe("http://127.0.0.1/mcp");
    expect(describeCause(42)).toBe("42");
    expect(describeCause(10n)).toBe("10");
    expect(describeCause(undefined)).toBe("undefined");
    expect(describeCause(null)).toBe("null");
    expect(describeCause(Symbol("s"))).toBe("Symbol(s)");
    expect(describeCause(() => 1)).toBe("a function");
  });

  it("never throws, whatever it is given", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const hostileError = Object.defineProperty(new Error("x"), "message", {
      get: () => {
        throw new Error("trap");
      },
    });
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    expect(describeCause(cyclic)).toBe("[object Object]");
    expect(describeCause(hostileError)).toBe("a value that cannot be printed");
    expect(describeCause(hostile)).toBe("a value that cannot be printed");
    expect(describeCause(Object.create(null))).toBe("a value that cannot be printed");
  });
});
