/** Where `${VAR}` references are looked up: `process.env` or any injected map. */
export type EnvMap = Readonly<Record<string, string | undefined>>;

/** A `${...}` reference that could not be expanded. */
export interface EnvReferenceProblem {
  /** The variable name, or the whole reference when it is not a valid one. */
  variable: string;
  kind: "unset" | "invalid";
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${VAR}`, `${VAR:-default}` (default when unset or empty) and VS Code's `${env:VAR}`
 * in one string; `$${` stays a literal `${`. Problems are returned, not thrown, so a caller can
 * name the file, server and field.
 */
export function expandEnvReferences(text: string, env: EnvMap): { value: string; problems: EnvReferenceProblem[] } {
  const problems: EnvReferenceProblem[] = [];
  const value = text.replace(REFERENCE, (match, body: string | undefined) => {
    if (body === undefined) return "${";
    const separator = body.indexOf(":-");
    const rawName = separator === -1 ? body : body.slice(0, separator);
    const name = rawName.startsWith("env:") ? rawName.slice("env:".length) : rawName;
    if (!VARIABLE_NAME.test(name)) {
      problems.push({ variable: match, kind: "invalid" });
      return match;
    }
    const current = env[name];
    if (separator !== -1) return current === undefined || current === "" ? body.slice(separator + 2) : current;
    if (current === undefined) {
      problems.push({ variable: name, kind: "unset" });
      return match;
    }
    return current;
  });
  return { value, problems };
}

/** A problem found while expanding every string inside a value, with the dotted path of the string. */
export interface LocatedEnvProblem extends EnvReferenceProblem {
  field: string;
}

/** Expands references in every string of a JSON-like value (object keys are left alone). */
export function expandEnvInValue(
  value: unknown,
  env: EnvMap,
  field = "",
): { value: unknown; problems: LocatedEnvProblem[] } {
  const problems: LocatedEnvProblem[] = [];
  const walk = (current: unknown, path: string): unknown => {
    if (typeof current === "string") {
      const expanded = expandEnvReferences(current, env);
      for (const problem of expanded.problems) problems.push({ ...problem, field: path });
      return expanded.value;
    }
    if (Array.isArray(current)) return current.map((item, index) => walk(item, `${path}[${index}]`));
    if (typeof current === "object" && current !== null) {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(current)) {
        Object.defineProperty(result, key, {
          value: walk(item, joinField(path, key)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return result;
    }
    return current;
  };
  return { value: walk(value, field), problems };
}

/** "env" + "API_KEY" -> "env.API_KEY"; keys that are not plain words are bracketed: env["my-key"]. */
export function joinField(parent: string, key: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === "" ? key : `${parent}.${key}`;
}
