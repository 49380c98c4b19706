import { readFileSync } from "node:fs";
import type { ServerToolPins } from "@mcp-tool-adapter/adapter";
import { describeCause, MCPToolAdapterError } from "@mcp-tool-adapter/core";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

/** The lock file's name; `mcp-tool-adapter pin` writes it in the working directory unless told otherwise. */
export const TOOL_LOCK_FILE_NAME = "mcp-tools.lock.json";

/** The approved tool definitions of every pinned server. */
export interface ToolLock {
  readonly lockfileVersion: 1;
  readonly servers: Readonly<Record<string, ServerToolPins>>;
}

export type MCPToolLockErrorCode = "LOCK_UNREADABLE" | "LOCK_INVALID";

/** The lock file could not be read, or is not a lock file this version understands. */
export class MCPToolLockError extends MCPToolAdapterError<MCPToolLockErrorCode> {
  static override readonly errorName: string = "MCPToolLockError";
  readonly path: string;

  constructor(code: MCPToolLockErrorCode, message: string, details: { path: string; cause?: unknown }) {
    super(code, message, details);
    this.path = details.path;
  }
}

/**
 * A small local file read synchronously: `call` reads the lock while its server starts, and
 * fs.promises would start Node's thread pool and wait on it for each step (open, stat, read, close).
 */
function readTextNow(path: string): Promise<string> {
  return Promise.resolve(readFileSync(path, "utf8"));
}

/** Reads a lock file; undefined when it does not exist. Throws MCPToolLockError when it is unreadable or malformed. */
export async function readToolLock(path: string): Promise<ToolLock | undefined> {
  let text: string;
  try {
    text = await readTextNow(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw new MCPToolLockError("LOCK_UNREADABLE", `Cannot read the tool lock file ${path}: ${describeCause(error)}.`, {
      path,
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MCPToolLockError(
      "LOCK_INVALID",
      `The tool lock file ${path} is not valid JSON (${describeCause(error)}). Delete it and run "mcp-tool-adapter pin" to write it again.`,
      { path, cause: error },
    );
  }
  const problem = lockProblem(value);
  if (problem !== undefined) {
    throw new MCPToolLockError(
      "LOCK_INVALID",
      `The tool lock file ${path} is not a lock file of this version: ${problem}. Run "mcp-tool-adapter pin" to write it again.`,
      { path },
    );
  }
  return value as ToolLock;
}

/** Writes a lock file atomically (a temporary file renamed over it), keys sorted so diffs stay small. */
export async function writeToolLock(path: string, lock: ToolLock): Promise<void> {
  const servers = Object.fromEntries(
    Object.keys(lock.servers)
      .sort()
      .map((name) => [name, lock.servers[name]]),
  );
  // Loaded for `pin` only: `call` reads the lock and never writes it.
  const { rename, writeFile } = await import("node:fs/promises");
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ lockfileVersion: 1, servers }, null, 2)}\n`, "utf8");
  await rename(temporary, path);
}

function lockProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "it is not a JSON object";
  if (value.lockfileVersion !== 1)
    return `"lockfileVersion" is ${value.lockfileVersion === undefined ? "missing" : JSON.stringify(value.lockfileVersion)}, expected 1`;
  if (!isRecord(value.servers)) return '"servers" must be an object';
  for (const [server, pins] of Object.entries(value.servers)) {
    if (!isRecord(pins) || !isRecord(pins.tools)) return `servers.${server}.tools must be an object`;
    for (const [tool, pin] of Object.entries(pins.tools)) {
      if (!isRecord(pin) || typeof pin.fingerprint !== "string" || !isRecord(pin.parts) || !isRecord(pin.capabilities))
        return `servers.${server}.tools.${tool} needs "fingerprint", "parts" and "capabilities"`;
    }
  }
  return undefined;
}
