/**
 * Runs first in every sandbox: takes the two host functions off the global object (so a program
 * sees only what this builds from them), defines `console` and `ToolCallError`, and builds one
 * frozen object per server whose methods call the host bridge with JSON text in and out. Only
 * JSON crosses the boundary: no host object, function or prototype ever reaches the program.
 */
export function preludeSource(api: Readonly<Record<string, Readonly<Record<string, string>>>>): string {
  return `(() => {
  const call = globalThis.__mcp_call;
  const log = globalThis.__mcp_log;
  delete globalThis.__mcp_call;
  delete globalThis.__mcp_log;
  const { stringify, parse } = JSON;
  const text = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof Error) return value.name + ": " + value.message;
    try { const json = stringify(value); return json === undefined ? String(value) : json; } catch { return String(value); }
  };
  const consoleObject = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    consoleObject[level] = (...values) => { log(level, values.map(text).join(" ")); };
  }
  globalThis.console = Object.freeze(consoleObject);
  class ToolCallError extends Error {
    constructor(message, tool, errorKind) {
      super(message);
      this.name = "ToolCallError";
      this.tool = tool;
      this.errorKind = errorKind;
    }
  }
  globalThis.ToolCallError = ToolCallError;
  const api = parse(${JSON.stringify(JSON.stringify(api))});
  for (const group of Object.keys(api)) {
    const methods = {};
    for (const method of Object.keys(api[group])) {
      const id = api[group][method];
      const name = group + "." + method;
      methods[method] = async (args) => {
        const outcome = parse(await call(id, args === undefined ? "{}" : stringify(args)));
        if (!outcome.ok) throw new ToolCallError(name + " failed (" + outcome.errorKind + "): " + outcome.error, name, outcome.errorKind);
        return outcome.value;
      };
    }
    globalThis[group] = Object.freeze(methods);
  }
})();`;
}
