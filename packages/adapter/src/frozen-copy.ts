// Past these, the fast path gives up and structuredClone (which handles cycles and shared
// references) takes over; tool listings are far smaller.
const MAX_FAST_DEPTH = 64;
const MAX_FAST_NODES = 10_000;

const UNSUPPORTED: unique symbol = Symbol("unsupported");
type Budget = { nodes: number };

/**
 * A deep-frozen copy, as `deepFreeze(structuredClone(value))` gives. Tool listings are plain JSON,
 * which a direct copy handles at a fraction of structuredClone's cost per small object; anything
 * else (Dates, Maps, class instances, cycles, sparse arrays) still goes through structuredClone.
 * In-process transports hand over the server's own objects, so they are copied, never frozen in place.
 * @throws what structuredClone throws for a value it cannot copy
 */
export function frozenCopy<T>(value: T): T {
  const copy = copyPlain(value, 0, { nodes: MAX_FAST_NODES });
  return copy === UNSUPPORTED ? deepFreeze(structuredClone(value)) : (copy as T);
}

function copyPlain(value: unknown, depth: number, budget: Budget): unknown {
  switch (typeof value) {
    case "object":
      break;
    case "function":
    case "symbol":
      return UNSUPPORTED;
    default:
      return value;
  }
  if (value === null) return value;
  if (depth >= MAX_FAST_DEPTH || --budget.nodes < 0) return UNSUPPORTED;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) return UNSUPPORTED;
      const item = copyPlain(value[index], depth + 1, budget);
      if (item === UNSUPPORTED) return UNSUPPORTED;
      items.push(item);
    }
    return Object.freeze(items);
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return UNSUPPORTED;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const member = copyPlain(record[key], depth + 1, budget);
    if (member === UNSUPPORTED) return UNSUPPORTED;
    // Assigning "__proto__" would set the prototype; it must stay an ordinary own property.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return Object.freeze(copy);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
