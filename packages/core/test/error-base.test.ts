import { describe, expect, it } from "vitest";
import { ERROR_MARKER, MCPToolAdapterError } from "../src/index.js";

type ShapeCode = "SHAPE_BAD" | "SHAPE_WORSE";

class ShapeError extends MCPToolAdapterError<ShapeCode> {
  static override readonly errorName: string = "ShapeError";
}

class CircleError extends ShapeError {
  static override readonly errorName: string = "CircleError";
  readonly radius: number;

  constructor(radius: number, options?: { cause?: unknown }) {
    super("SHAPE_BAD", `radius ${radius} is negative`, options);
    this.radius = radius;
  }
}

class OtherError extends MCPToolAdapterError {
  static override readonly errorName: string = "OtherError";
}

/** What an instance from a second copy of a package looks like: the shared marker and lineage, another class. */
function fromOtherCopy(names: string[], code = "SHAPE_BAD"): object {
  const error = new Error("from another copy");
  error.name = names[0]!;
  Object.defineProperty(error, Symbol.for("mcp-tool-adapter.error"), { value: true });
  Object.defineProperty(error, Symbol.for("mcp-tool-adapter.error.lineage"), { value: names });
  return Object.assign(error, { code });
}

describe("MCPToolAdapterError", () => {
  it("names instances after their class, keeps the code and passes the cause through", () => {
    const cause = new Error("root");
    const error = new CircleError(-1, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("CircleError");
    expect(error.code).toBe("SHAPE_BAD");
    expect(error.message).toBe("radius -1 is negative");
    expect(error.cause).toBe(cause);
    expect(error.radius).toBe(-1);
    expect(new ShapeError("SHAPE_WORSE", "x").name).toBe("ShapeError");
    expect("cause" in new ShapeError("SHAPE_BAD", "x")).toBe(false);
  });

  it("carries the shared marker, not enumerable so logs and spreads stay clean", () => {
    const error = new ShapeError("SHAPE_BAD", "x");
    expect(ERROR_MARKER).toBe(Symbol.for("mcp-tool-adapter.error"));
    expect((error as unknown as Record<symbol, unknown>)[ERROR_MARKER]).toBe(true);
    expect(Object.prototype.propertyIsEnumerable.call(error, ERROR_MARKER)).toBe(false);
    expect(Object.getOwnPropertySymbols(Object.assign({}, error))).toEqual([]);
  });

  it("isInstance recognises the class it is called on and its subclasses, nothing else", () => {
    const shape = new ShapeError("SHAPE_BAD", "x");
    const circle = new CircleError(-1);
    const other = new OtherError("X", "x");
    expect(ShapeError.isInstance(shape)).toBe(true);
    expect(ShapeError.isInstance(circle)).toBe(true);
    expect(CircleError.isInstance(circle)).toBe(true);
    expect(CircleError.isInstance(shape)).toBe(false);
    expect(ShapeError.isInstance(other)).toBe(false);
    expect(OtherError.isInstance(circle)).toBe(false);
    for (const error of [shape, circle, other]) expect(MCPToolAdapterError.isInstance(error)).toBe(true);
  });

  it("isInstance works across copies of a package, by lineage or (older copies) by name", () => {
    expect(ShapeError.isInstance(fromOtherCopy(["CircleError", "ShapeError", "MCPToolAdapterError"]))).toBe(true);
    expect(CircleError.isInstance(fromOtherCopy(["CircleError", "ShapeError", "MCPToolAdapterError"]))).toBe(true);
    expect(CircleError.isInstance(fromOtherCopy(["ShapeError", "MCPToolAdapterError"]))).toBe(false);
    const older = { [Symbol.for("mcp-tool-adapter.error")]: true, name: "ShapeError", code: "SHAPE_BAD" };
    expect(ShapeError.isInstance(older)).toBe(true);
    expect(CircleError.isInstance(older)).toBe(false);
    expect(MCPToolAdapterError.isInstance(older)).toBe(true);
  });

  it("isInstance is false for anything without the marker, and never throws", () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
      },
    );
    for (const value of [
      null,
      undefined,
      0,
      "ShapeError",
      new Error("x"),
      { name: "ShapeError", code: "SHAPE_BAD" },
      hostile,
    ]) {
      expect(ShapeError.isInstance(value)).toBe(false);
      expect(MCPToolAdapterError.isInstance(value)).toBe(false);
    }
  });

  it("narrows the type to the class it is called on", () => {
    const value: unknown = new CircleError(-2);
    if (!CircleError.isInstance(value)) throw new Error("expected a CircleError");
    expect(value.radius).toBe(-2);
  });

  it("says how to call isInstance when it is detached from its class", () => {
    const detached = ShapeError.isInstance as (value: unknown) => boolean;
    expect(() => detached(new ShapeError("SHAPE_BAD", "x"))).toThrow(/call it as MyError\.isInstance\(value\)/);
  });
});
