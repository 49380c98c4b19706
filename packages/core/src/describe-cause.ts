/** JSON.stringify as it behaves: undefined for functions, symbols and undefined. */
const stringifyJson: (value: unknown) => string | undefined = JSON.stringify;

/**
 * A short description of any thrown value, for quoting in an error message: an error's message
 * (its name when the message is empty), a string as it is, an object as it prints itself (a URL)
 * or else as JSON, the rest as `String` gives them. Never throws, even for a hostile value (a
 * throwing getter, a Proxy, an object without a prototype, a cycle).
 */
export function describeCause(cause: unknown): string {
  try {
    // Also errors from another realm (a vm context, an iframe), where instanceof Error is false.
    if (cause instanceof Error || Object.prototype.toString.call(cause) === "[object Error]")
      return describeError(cause as Error);
    if (typeof cause === "string") return cause;
    if (typeof cause === "function") return "a function";
    if (typeof cause === "object" && cause !== null) return describeObject(cause);
    return String(cause);
  } catch {
    return "a value that cannot be printed";
  }
}

function describeError(error: Error): string {
  const message: unknown = error.message;
  if (typeof message === "string" && message !== "") return message;
  const name: unknown = error.name;
  return typeof name === "string" && name !== "" ? name : "Error";
}

function describeObject(value: object): string {
  if (Array.isArray(value)) return jsonOf(value) ?? "an array";
  // Throws for an object without a prototype (nothing to print it with): "cannot be printed".
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- "[object Object]" is detected and replaced by JSON below
  const text = String(value);
  return text.startsWith("[object ") ? (jsonOf(value) ?? text) : text;
}

/** The value as JSON; undefined when it has none (a cycle, a BigInt inside, a throwing toJSON). */
function jsonOf(value: object): string | undefined {
  try {
    return stringifyJson(value);
  } catch {
    return undefined;
  }
}
