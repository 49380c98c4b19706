import { Type, type Static } from "typebox";

// Loaded only through the `/config-schema` entry: the transport itself checks configs with
// findStdioConfigIssues (config-check.ts), which says the same without loading TypeBox.

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
