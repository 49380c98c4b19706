import { deepFreeze } from "./freeze.js";

// Past these, the fast path gives up and structuredClone (which handles cycles and shared
// references) takes over; real schemas and metadata are far smaller.
const MAX_FAST_DEPTH = 64;
const MAX_FAST_NODES = 10_000;

const UNSUPPORTED: unique symbol = Symbol("unsupported");
type Budget = { nodes: number };

/**
 * Every object the fast path returned: deep-frozen plain data, so a later snapshot of it (the
 * registry snapshots the schemas the adapter froze at discovery) returns it without walking it.
 * The structuredClone path's results are not here: a frozen Date or Map can still change.
 */
const knownSnapshots = new WeakSet<object>();

/**
 * A deep-frozen copy of plain data, as `deepFreeze(structuredClone(value))` gives, but parts that
 * are already deep-frozen plain data are shared instead of copied: the adapter hands over schemas
 * it froze itself, and copying them again was most of the cost of registering a tool.
 * Anything else (Dates, Maps, class instances, cycles, functions) goes through structuredClone,
 * so it is copied, or refused, exactly as before.
 * Exported so a tool source can freeze its data with the same rule the registry applies, and
 * have the registry share it instead of copying it again.
 * @throws what structuredClone throws for a value it cannot copy
 */
export function frozenSnapshot<T>(value: T): T {
  const snapshot = snapshotPlain(value, 0, { nodes: MAX_FAST_NODES });
  if (snapshot === UNSUPPORTED) return deepFreeze(structuredClone(value));
  if (typeof snapshot === "object" && snapshot !== null) knownSnapshots.add(snapshot);
  return snapshot as T;
}

/**
 * Deep-freezes JSON data where it is, for data the caller owns outright (what `JSON.parse` just
 * returned, which nothing else references), and returns it: the same result as frozenSnapshot
 * without copying it. Tool discovery keeps thousands of listed schemas; freezing them in place
 * instead of copying them saves the copy's time and memory. Anything that is not plain JSON data
 * (a class instance, a symbol key, a cycle, too deep) falls back to frozenSnapshot, which copies it
 * (the plain parts already frozen are shared).
 */
export function freezeOwnedJson<T>(value: T): T {
  if (typeof value !== "object" || value === null || knownSnapshots.has(value)) return value;
  if (!freezeJsonInPlace(value, 0, { nodes: MAX_FAST_NODES })) return frozenSnapshot(value);
  knownSnapshots.add(value);
  return value;
}

/**
 * Freezes plain JSON objects and arrays, each before its members; false at anything else (the
 * caller then copies what it meant to keep; what was frozen on the way is owned data anyway).
 */
function freezeJsonInPlace(value: object, depth: number, budget: Budget): boolean {
  if (Object.isFrozen(value)) return knownSnapshots.has(value) || isPlainFrozenJson(value);
  if (depth >= MAX_FAST_DEPTH || --budget.nodes < 0) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value) ? prototype !== Array.prototype : prototype !== Object.prototype) return false;
  // Frozen first: for...in then sees exactly the own keys it has (nothing can be added), on V8's
  // fast path; an own-key check per key inside the loop made discovery slower than copying.
  Object.freeze(value);
  const source = value as Record<string, unknown>;
  for (const key in source) {
    const member = source[key];
    if (typeof member === "object") {
      if (member !== null && !freezeJsonInPlace(member, depth + 1, budget)) return false;
    } else if (typeof member === "function" || typeof member === "symbol") return false;
  }
  return true;
}

/** A frozen object met on the way (say, a shared default) counts as plain only if a snapshot would share it. */
function isPlainFrozenJson(value: object): boolean {
  return snapshotPlain(value, 0, { nodes: MAX_FAST_NODES }) === value;
}

function snapshotPlain(value: unknown, depth: number, budget: Budget): unknown {
  switch (typeof value) {
    case "object":
      if (value === null || knownSnapshots.has(value)) return value;
      if (depth >= MAX_FAST_DEPTH || --budget.nodes < 0) return UNSUPPORTED;
      return Array.isArray(value) ? snapshotArray(value, depth, budget) : snapshotRecord(value, depth, budget);
    case "function":
    case "symbol":
      return UNSUPPORTED;
    default:
      return value;
  }
}

function snapshotArray(array: readonly unknown[], depth: number, budget: Budget): unknown {
  // Holes and extra (non-index) properties are left to structuredClone, which keeps them.
  if (Object.getOwnPropertyNames(array).length !== array.length + 1 || Object.getOwnPropertySymbols(array).length !== 0)
    return UNSUPPORTED;
  // The copy is allocated at the array's exact length and filled by index: an array grown by
  // push() keeps room for 16 more items, which for the short enum and required lists of
  // thousands of listed schemas was most of the memory their copies took.
  const shared = Object.isFrozen(array) && hasOnlyDataProperties(array, Object.keys(array));
  let copy: unknown[] | undefined = shared ? undefined : new Array<unknown>(array.length);
  for (let index = 0; index < array.length; index++) {
    const item = array[index];
    const snapshot = snapshotPlain(item, depth + 1, budget);
    if (snapshot === UNSUPPORTED) return UNSUPPORTED;
    if (copy === undefined) {
      if (snapshot === item) continue;
      copy = new Array<unknown>(array.length);
      for (let earlier = 0; earlier < index; earlier++) copy[earlier] = array[earlier];
    }
    copy[index] = snapshot;
  }
  return copy === undefined ? array : Object.freeze(copy);
}

function snapshotRecord(record: object, depth: number, budget: Budget): unknown {
  const prototype: unknown = Object.getPrototypeOf(record);
  if (prototype !== Object.prototype && prototype !== null) return UNSUPPORTED;
  const keys = Object.keys(record);
  // A null-prototype object becomes an ordinary one, as structuredClone makes it.
  let copy: Record<string, unknown> | undefined = prototype !== null && isSealedRecord(record, keys) ? undefined : {};
  const source = record as Record<string, unknown>;
  let index = 0;
  for (const key of keys) {
    const member = source[key];
    const snapshot = snapshotPlain(member, depth + 1, budget);
    if (snapshot === UNSUPPORTED) return UNSUPPORTED;
    index += 1;
    if (copy === undefined) {
      if (snapshot === member) continue;
      copy = {};
      for (const earlier of keys.slice(0, index - 1)) setMember(copy, earlier, source[earlier]);
    }
    setMember(copy, key, snapshot);
  }
  return copy === undefined ? record : Object.freeze(copy);
}

function setMember(record: Record<string, unknown>, key: string, value: unknown): void {
  // Assigning "__proto__" would set the prototype; it must stay an ordinary own property.
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/**
 * Whether a record can be shared as it is: frozen, and holding nothing a copy would drop or
 * that could still change (symbol keys, non-enumerable properties, getters).
 */
function isSealedRecord(record: object, keys: readonly string[]): boolean {
  return (
    Object.isFrozen(record) &&
    Object.getOwnPropertySymbols(record).length === 0 &&
    Object.getOwnPropertyNames(record).length === keys.length &&
    hasOnlyDataProperties(record, keys)
  );
}

function hasOnlyDataProperties(value: object, keys: readonly string[]): boolean {
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !("value" in descriptor)) return false;
  }
  return true;
}
