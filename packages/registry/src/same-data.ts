/**
 * Structural equality for the plain data a tool definition carries (JSON Schema,
 * capabilities, metadata): primitives, arrays, plain objects and Dates, cycles allowed.
 */
export function sameData(left: unknown, right: unknown, seen = new WeakMap<object, object>()): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (seen.get(left) === right) return true;
  seen.set(left, right);
  if (left instanceof Date || right instanceof Date) {
    return left instanceof Date && right instanceof Date && left.getTime() === right.getTime();
  }
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  return leftKeys.every((key) => Object.hasOwn(rightRecord, key) && sameData(leftRecord[key], rightRecord[key], seen));
}
