import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type MCPConfigFileErrorCode =
  | "CONFIG_FILE_NOT_FOUND"
  | "CONFIG_FILE_UNREADABLE"
  | "CONFIG_FILE_SYNTAX"
  | "CONFIG_FILE_INVALID"
  | "CONFIG_ENV_UNSET";

/** One problem in a config file: which server, which field in it, and what is wrong. */
export interface ConfigFileIssue {
  /** The server's key under mcpServers / servers; absent for problems with the file as a whole. */
  server?: string;
  /** Dotted path inside the server entry ("args[0]", "env.API_KEY", "tools.include"), or inside the file when no server. */
  field?: string;
  message: string;
}

export interface MCPConfigFileErrorDetails {
  file: string;
  issues?: readonly ConfigFileIssue[];
  line?: number;
  column?: number;
  cause?: unknown;
}

/**
 * A config file could not be used. `file` names it; `server` and `field` name the first bad
 * place (every problem is in `issues`); `line` / `column` are set for syntax errors.
 */
export class MCPConfigFileError extends MCPToolAdapterError<MCPConfigFileErrorCode> {
  static override readonly errorName: string = "MCPConfigFileError";
  readonly file: string;
  readonly issues: readonly ConfigFileIssue[];
  readonly server?: string;
  readonly field?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(code: MCPConfigFileErrorCode, message: string, details: MCPConfigFileErrorDetails) {
    super(code, message, details);
    this.file = details.file;
    this.issues = Object.freeze((details.issues ?? []).map((issue) => Object.freeze({ ...issue })));
    const first = this.issues[0];
    if (first?.server !== undefined) this.server = first.server;
    if (first?.field !== undefined) this.field = first.field;
    if (details.line !== undefined) this.line = details.line;
    if (details.column !== undefined) this.column = details.column;
  }
}

/** "server \"memory\" field \"args[0]\": must be string" — the place, then the problem. */
export function describeIssue(issue: ConfigFileIssue): string {
  const where = [
    issue.server === undefined ? undefined : `server "${issue.server}"`,
    issue.field === undefined ? undefined : `field "${issue.field}"`,
  ].filter((part): part is string => part !== undefined);
  return where.length === 0 ? issue.message : `${where.join(" ")}: ${issue.message}`;
}
