/**
 * One problem found in a config: where (a JSON pointer, "" for the value itself) and what is
 * wrong. Every package that checks a config reports its problems in this shape.
 */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Checks a field that must be an object of strings (environment variables, HTTP headers): adds
 * one issue to `issues` for a value that is no such object, or one per entry that is not a
 * string. `path` is the field's JSON pointer ("/env"); messages name the field ("env.HOME must
 * be a string"). Never throws.
 */
export function findStringRecordIssues(value: unknown, path: string, issues: ConfigIssue[]): void {
  const field = path.slice(1);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issues.push({ path, message: `${field} must be an object of strings` });
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string")
      issues.push({ path: `${path}/${escapePointerSegment(key)}`, message: `${field}.${key} must be a string` });
  }
}

/** A key as a JSON pointer segment (RFC 6901): "~" as "~0", "/" as "~1". */
function escapePointerSegment(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
