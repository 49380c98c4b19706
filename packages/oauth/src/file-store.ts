import { createHash, randomBytes } from "node:crypto";
import { chmod, link, lstat, mkdir, open, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { describeCause, type Logger } from "@mcp-tool-adapter/core";
import { MCPAuthError } from "./errors.js";
import { canonicalCredentialUrl, type CredentialStore, type StoredCredentials } from "./store.js";

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

/** What names a stored record: the resource and (once discovered) its authorization server. */
export interface CredentialKey {
  readonly resource: string;
  readonly authorizationServer?: string;
}

/** Stands for "authorization server not discovered yet" in a file name. */
const NO_AUTHORIZATION_SERVER = "unknown";

/** A readable host, then a hash of the whole canonical URL (paths and ports differ per server). */
function namePart(url: string, hashLength: number): string {
  const canonical = canonicalCredentialUrl(url);
  let host = "server";
  try {
    host = new URL(canonical).host.replace(/[^a-zA-Z0-9.-]/g, "_");
  } catch {
    // Not a URL: the hash alone names it.
  }
  return `${host}-${createHash("sha256").update(canonical).digest("hex").slice(0, hashLength)}`;
}

/** The shared start of every file name for `resource`, one per authorization server. */
function resourcePrefix(resource: string): string {
  return `${namePart(resource, 16)}@`;
}

/**
 * The file for (authorization server, resource): `<resource host>-<hash>@<issuer host>-<hash>.json`,
 * e.g. `mcp.example.com-3f1c…@auth.example.com-9a2b….json`. Hashes keep names safe and distinct;
 * hosts keep them readable.
 */
export function credentialsFileName(key: CredentialKey): string {
  const server =
    key.authorizationServer === undefined ? NO_AUTHORIZATION_SERVER : namePart(key.authorizationServer, 12);
  return `${resourcePrefix(key.resource)}${server}.json`;
}

/** The name the per-resource layout (before the authorization server was part of the key) used. */
function legacyFileName(resource: string): string {
  let host = "server";
  try {
    host = new URL(resource).host.replace(/[^a-zA-Z0-9.-]/g, "_");
  } catch {
    // As the old layout did.
  }
  return `${host}-${createHash("sha256").update(resource).digest("hex").slice(0, 16)}.json`;
}

const isLegacyName = (name: string): boolean => name.endsWith(".json") && !name.includes("@");

/**
 * One JSON file per (authorization server, resource) in the user's config directory, mode 0600 in a
 * 0700 directory, replaced atomically (written to a temporary file, flushed, renamed). On POSIX
 * systems a file or directory that group or others can access, a symbolic link or another user's
 * file is refused (or, for modes, warned about and tightened). Files of the older per-resource
 * layout are moved to their new name the first time their resource is used (or on `list`), by
 * hard link and unlink: atomic, once, and subject to the same checks.
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

  /** The directory's names after its check, or undefined when there is no directory yet. */
  async function names(): Promise<string[] | undefined> {
    let found: string[];
    try {
      found = await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    await checkPermissions(directory, "directory");
    return found;
  }

  async function exists(path: string): Promise<boolean> {
    try {
      await lstat(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  async function readPath(path: string): Promise<StoredCredentials | undefined> {
    if (!(await exists(path))) return undefined;
    await checkPermissions(path, "file");
    const text = await readFile(path, "utf8");
    try {
      const parsed = JSON.parse(text) as unknown;
      if (
        typeof parsed !== "object" ||
        parsed === null ||
        typeof (parsed as { resource?: unknown }).resource !== "string" ||
        !["string", "undefined"].includes(typeof (parsed as { authorizationServer?: unknown }).authorizationServer)
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

  /**
   * Moves one file of the per-resource layout to its (authorization server, resource) name after
   * the same checks as a read. A record already at the new name is newer (written by this layout):
   * it stays, and the old file goes, with a warning.
   */
  async function migrate(name: string): Promise<void> {
    const from = join(directory, name);
    const record = await readPath(from);
    if (record === undefined) return;
    const to = join(directory, credentialsFileName(record));
    try {
      // link fails rather than replace: a newer record at the new name is never overwritten.
      await link(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      options.logger?.warn?.("An old-layout credentials file was superseded by a newer login; removed it", {
        path: from,
      });
    }
    try {
      await unlink(from);
    } catch (error) {
      // Another process moved it at the same time.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    options.logger?.info?.("Moved a credentials file to the per-authorization-server layout", { from, to });
  }

  async function migrateResource(resource: string, present: readonly string[]): Promise<void> {
    const legacy = new Set([legacyFileName(resource), legacyFileName(canonicalCredentialUrl(resource))]);
    for (const name of legacy) if (present.includes(name)) await migrate(name);
  }

  /** The files for `resource`, newest first, after moving its old-layout file. */
  async function filesFor(resource: string): Promise<string[]> {
    let present = await names();
    if (present === undefined) return [];
    if (present.some(isLegacyName)) {
      await migrateResource(resource, present);
      present = (await names()) ?? [];
    }
    const prefix = resourcePrefix(resource);
    const matching = present.filter((name) => name.startsWith(prefix) && name.endsWith(".json"));
    const dated = await Promise.all(
      matching.map(async (name) => ({ name, modified: (await lstat(join(directory, name))).mtimeMs })),
    );
    return dated.sort((a, b) => b.modified - a.modified).map(({ name }) => join(directory, name));
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
    read: (resource, authorizationServer) =>
      wrap("read", async () => {
        const files = await filesFor(resource);
        if (authorizationServer === undefined) return files[0] === undefined ? undefined : readPath(files[0]);
        const wanted = join(directory, credentialsFileName({ resource, authorizationServer }));
        return files.includes(wanted) ? readPath(wanted) : undefined;
      }),
    write: (credentials) =>
      wrap("write to", async () => {
        await ensureDirectory();
        const target = join(directory, credentialsFileName(credentials));
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
    delete: (resource, authorizationServer) =>
      wrap("delete from", async () => {
        const files = await filesFor(resource);
        const doomed =
          authorizationServer === undefined
            ? files
            : files.filter((file) => file === join(directory, credentialsFileName({ resource, authorizationServer })));
        for (const file of doomed) await rm(file, { force: true });
        return doomed.length > 0;
      }),
    list: () =>
      wrap("list", async () => {
        let present = await names();
        if (present === undefined) return [];
        const legacy = present.filter(isLegacyName);
        for (const name of legacy) await migrate(name);
        if (legacy.length > 0) present = (await names()) ?? [];
        const found: StoredCredentials[] = [];
        for (const name of present.filter((n) => n.endsWith(".json")).sort()) {
          const credentials = await readPath(join(directory, name));
          if (credentials) found.push(credentials);
        }
        return found;
      }),
  };
}
