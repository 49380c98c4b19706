import { Type, type Static } from "typebox";
// typebox/value checks through typebox/schema; importing the latter directly skips the value utilities.
import { Check as schemaCheck, Errors as schemaErrors } from "typebox/schema";
import { StdioTransportError } from "./errors.js";

/** How to launch an MCP server over stdio. Extra properties are allowed so larger configs can embed it. */
export const StdioServerConfigSchema = Type.Object({
  /** The executable; run without a shell, looked up on the server environment's PATH. */
  command: Type.String({ minLength: 1 }),
  /** Passed literally: no shell quoting, globbing or substitution happens. */
  args: Type.Optional(Type.Array(Type.String())),
  /** Set on top of the safe default environment. */
  env: Type.Optional(Type.Record(Type.String(), Type.String())),
  cwd: Type.Optional(Type.String({ minLength: 1 })),
  /** `true` passes the whole parent environment; a list passes only those names. Default: neither. */
  inheritEnv: Type.Optional(Type.Union([Type.Boolean(), Type.Array(Type.String())])),
});

export type StdioServerConfig = Static<typeof StdioServerConfigSchema>;

/** Throws CONFIG_INVALID naming every bad field at once. */
export function assertStdioServerConfig(config: unknown): asserts config is StdioServerConfig {
  if (schemaCheck(StdioServerConfigSchema, config)) return;
  const problems = schemaErrors(StdioServerConfigSchema, config)[1].map(
    (issue) =>
      `${issue.instancePath === "" ? "config" : issue.instancePath.slice(1).replaceAll("/", ".")} ${issue.message}`,
  );
  throw new StdioTransportError(
    "CONFIG_INVALID",
    `Invalid stdio server config: ${problems.join("; ")}. Give at least a non-empty "command" string.`,
  );
}
