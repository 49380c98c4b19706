import { createHash, randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { describeCause, type Logger } from "@mcp-tool-adapter/core";
import { MCPAuthError } from "./errors.js";
import type { CredentialStore, StoredCredentials } from "./store.js";

export interface FileStoreOptions {
  /** Where the files go. Default: {@link defaultCredentialsDirectory}. */
  directory?: string;
  /**
   * A file or directory other users can read or write: "refuse" (default) throws
   * `AUTH_STORE_INSECURE` and reads nothing; "warn" logs a warning, tightens the mode and goes on.
   */
  onLoosePermissions?: "refuse" | "warn";
  logger?: Logger;
}

/**
 * `$MCP_TOOL_ADAPTER_AUTH_DIR`, else `mcp-tool-adapter/auth` in the user's config directory:
 * `%APPDATA%` on Windows, `$XDG_CONFIG_HOME` or `~/.config` elsewhere.
 */
export function defaultCredentialsDirectory(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.MCP_TOOL_ADAPTER_AUTH_DIR) return env.MCP_TOOL_ADAPTER_AUTH_DIR;
  const base =
    platform === "win32"
      ? (env.APPDATA ?? join(homedir(), "AppData", "Roaming"))
      : (env.XDG_CONFIG_HOME ?? join(homedir(), ".config"));
  return join(base, "mcp-tool-adapter", "auth");
}

/** The file name for a server: readable host, then a hash of the whole URL (paths and ports differ per server). */
export function credentialsFileName(resource: string): string {
  let host = "server";
  try {
    host = new URL(resource).host.replace(/[^a-zA-Z0-9.-]/g, "_");
  } catch {
    // Not a URL: the hash alone names it.
  }
  return `${host}-${createHash("sha256").update(resource).digest("hex").slice(0, 16)}.json`;
}

/**
 * One JSON file per MCP server in the user's config directory, mode 0600 in a 0700 directory,
 * replaced atomically (written to a temporary file, flushed, renamed). On POSIX systems a file or
 * directory that group or others can access is refused (or warned about and tightened).
 */
export function createFileStore(options: FileStoreOptions = {}): CredentialStore {
  const directory = options.directory ?? defaultCredentialsDirectory();
  const policy = options.onLoosePermissions ?? "refuse";
  const checkModes = process.platform !== "win32";

  async function checkPermissions(path: string, kind: "file" | "directory"): Promise<void> {
    if (!checkModes) return;
    const info = await lstat(path);
    if (info.isSymbolicLink()) {
      throw new MCPAuthError(
        "AUTH_STORE_INSECURE",
        `The credentials ${kind} ${path} is a symbolic link; it was not read. Remove the link and log in again.`,
      );
    }
    if (typeof process.getuid === "function" && info.uid !== process.getuid()) {
      throw new MCPAuthError(
        "AUTH_STORE_INSECURE",
        `The credentials ${kind} ${path} belongs to another user (uid ${info.uid}); it was not read. Remove it and log in again.`,
      );
    }
    const loose = info.mode & 0o077;
    if (loose === 0) return;
    const wanted = kind === "file" ? "600" : "700";
    const mode = (info.mode & 0o777).toString(8);
    if (policy === "refuse") {
      throw new MCPAuthError(
        "AUTH_STORE_INSECURE",
        `The credentials ${kind} ${path} has mode ${mode}: other users can access it, so it was not used. ` +
          `Run \`chmod ${wanted} ${path}\` (and log in again if someone else may have read it).`,
      );
    }
    options.logger?.warn?.(`Credentials ${kind} had mode ${mode}; tightened to ${wanted}`, { path });
    await chmod(path, kind === "file" ? 0o600 : 0o700);
  }

  async function ensureDirectory(): Promise<void> {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await checkPermissions(directory, "directory");
  }

  async function readPath(path: string): Promise<StoredCredentials | undefined> {
    try {
      await stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    await checkPermissions(path, "file");
    const text = await readFile(path, "utf8");
    try {
      const parsed = JSON.parse(text) as unknown;
      if (
        typeof parsed !== "object" ||
        parsed === null ||
        typeof (parsed as { resource?: unknown }).resource !== "string"
      )
        throw new Error("no resource");
      return parsed as StoredCredentials;
    } catch (error) {
      throw new MCPAuthError(
        "AUTH_STORE_INSECURE",
        `The credentials file ${path} is not a credentials record (${describeCause(error)}). Delete it and log in again.`,
      );
    }
  }

  function wrap<T>(action: string, run: () => Promise<T>): Promise<T> {
    return run().catch((error: unknown) => {
      if (MCPAuthError.isInstance(error)) throw error;
      throw new MCPAuthError(
        "AUTH_STORE_INSECURE",
        `Could not ${action} the credentials store ${directory}: ${describeCause(error)}. Check that the directory is yours and writable.`,
        { cause: error },
      );
    });
  }

  return {
    read: (resource) =>
      wrap("read", async () => {
        try {
          await stat(directory);
        } catch {
          return undefined;
        }
        await checkPermissions(directory, "directory");
        return readPath(join(directory, credentialsFileName(resource)));
      }),
    write: (credentials) =>
      wrap("write to", async () => {
        await ensureDirectory();
        const target = join(directory, credentialsFileName(credentials.resource));
        const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`;
        // "wx": a file planted at the temporary name is never written through.
        const handle = await open(temporary, "wx", 0o600);
        try {
          await handle.writeFile(`${JSON.stringify(credentials, null, 2)}\n`, "utf8");
          await handle.sync();
        } finally {
          await handle.close();
        }
        try {
          await rename(temporary, target);
        } catch (error) {
          await rm(temporary, { force: true });
          throw error;
        }
      }),
    delete: (resource) =>
      wrap("delete from", async () => {
        const path = join(directory, credentialsFileName(resource));
        try {
          await rm(path);
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
          throw error;
        }
      }),
    list: () =>
      wrap("list", async () => {
        let names: string[];
        try {
          names = await readdir(directory);
        } catch {
          return [];
        }
        await checkPermissions(directory, "directory");
        const found: StoredCredentials[] = [];
        for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
          const credentials = await readPath(join(directory, name));
          if (credentials) found.push(credentials);
        }
        return found;
      }),
  };
}
