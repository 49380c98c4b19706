/**
 * The marker every error of the project carries (value `true`). `Symbol.for`, so two copies of a
 * package (two versions in one node_modules, a bundled and an installed one) share it.
 */
export const ERROR_MARKER: unique symbol = Symbol.for("mcp-tool-adapter.error");

/**
 * The error names of an instance's class and its ancestors, most derived first. It lets
 * `Parent.isInstance` recognise a subclass instance from another copy, where `instanceof` fails.
 */
const ERROR_LINEAGE = Symbol.for("mcp-tool-adapter.error.lineage");

export interface MCPToolAdapterErrorOptions {
  /** What caused this error; kept as `error.cause` (absent when undefined). */
  cause?: unknown;
}

/** A class derived from {@link MCPToolAdapterError}: what `isInstance` is called on. */
export type MCPToolAdapterErrorClass<T extends MCPToolAdapterError = MCPToolAdapterError> = (abstract new (
  ...args: never
) => T) & {
  readonly errorName: string;
};

const lineages = new WeakMap<object, readonly string[]>();

/**
 * The base of every error class of mcp-tool-adapter: a stable string `code`, `name` equal to the
 * class name, `cause` passed through, and a realm- and copy-safe `isInstance`.
 *
 * A subclass declares its name once, as `static override readonly errorName: string = "MyError"`; the
 * instances' `name` and what `MyError.isInstance` recognises both come from it (an explicit
 * string, because bundlers rename classes).
 */
export abstract class MCPToolAdapterError<Code extends string = string> extends Error {
  /** The `name` of this class's instances; every subclass declares its own. */
  static readonly errorName: string = "MCPToolAdapterError";

  declare readonly [ERROR_MARKER]: true;
  readonly code: Code;

  constructor(code: Code, message: string, options: MCPToolAdapterErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const lineage = lineageOf(new.target);
    this.name = lineage[0] ?? MCPToolAdapterError.errorName;
    this.code = code;
    // Not enumerable: they are for isInstance, not for logs or spreads.
    Object.defineProperty(this, ERROR_MARKER, { value: true });
    Object.defineProperty(this, ERROR_LINEAGE, { value: lineage });
  }

  /**
   * True when `value` is an instance of the class this is called on (or of a subclass), from
   * this copy of the package or any other: it reads the shared marker and the error's name, not
   * `instanceof`. `MCPToolAdapterError.isInstance` is true for every error of the project.
   * Call it on the class (`MyError.isInstance(value)`), not as a detached function.
   */
  static isInstance<T extends MCPToolAdapterError>(this: MCPToolAdapterErrorClass<T>, value: unknown): value is T {
    if (typeof this !== "function") {
      throw new TypeError(
        "isInstance was called without its class: call it as MyError.isInstance(value), or wrap it in an arrow function.",
      );
    }
    const brand = this.errorName;
    try {
      if (typeof value !== "object" || value === null) return false;
      const marked = value as { [ERROR_MARKER]?: unknown; [ERROR_LINEAGE]?: unknown; name?: unknown };
      if (marked[ERROR_MARKER] !== true) return false;
      if (brand === MCPToolAdapterError.errorName) return true;
      const lineage = marked[ERROR_LINEAGE];
      // A copy from before the lineage existed, or a plain object standing in for one: its name.
      return Array.isArray(lineage) ? lineage.includes(brand) : marked.name === brand;
    } catch {
      // A hostile value (a throwing getter or Proxy) is not one of ours.
      return false;
    }
  }
}

/** The errorName of `errorClass` and each ancestor that declares its own, most derived first. */
function lineageOf(errorClass: MCPToolAdapterErrorClass): readonly string[] {
  const known = lineages.get(errorClass);
  if (known !== undefined) return known;
  const names: string[] = [];
  for (let current: unknown = errorClass; typeof current === "function"; current = Object.getPrototypeOf(current)) {
    if (Object.hasOwn(current, "errorName")) names.push((current as MCPToolAdapterErrorClass).errorName);
  }
  const lineage = Object.freeze(names);
  lineages.set(errorClass, lineage);
  return lineage;
}
