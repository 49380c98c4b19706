import { lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CacheStore, Logger } from "@mcp-tool-adapter/adapter";
import { sha256Hex } from "./sha256-hex.js";

export interface FileCacheStoreOptions {
  /** Where the files go. Default: {@link defaultCacheDirectory}. */
  directory?: string;
  /** Told (debug) about entries that were ignored and why. */
  logger?: Logger;
}

/**
 * `$MCP_TOOL_ADAPTER_CACHE_DIR`, else `mcp-tool-adapter/cache` in the user's cache directory:
 * `%LOCALAPPDATA%` on Windows, `$XDG_CACHE_HOME` or `~/.cache` elsewhere.
 */
export function defaultCacheDirectory(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env["MCP_TOOL_ADAPTER_CACHE_DIR"]) return env["MCP_TOOL_ADAPTER_CACHE_DIR"];
  const base =
    platform === "win32"
      ? (env["LOCALAPPDATA"] ?? join(homedir(), "AppData", "Local"))
      : (env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"));
  return join(base, "mcp-tool-adapter", "cache");
}

/**
 * A CacheStore of one file per key (`<sha256 of the key>.json`), mode 0600 in a 0700 directory,
 * replaced atomically (written to a temporary file, flushed, renamed), like the OAuth token store.
 * On POSIX a file that is a symbolic link, belongs to another user or that others can write is
 * ignored (a debug log says why; the next `set` replaces it): a cache is never worth an error.
 */
export function createFileCacheStore(options: FileCacheStoreOptions = {}): CacheStore {
  return new FileCacheStore(options.directory ?? defaultCacheDirectory(), options.logger);
}

class FileCacheStore implements CacheStore {
  readonly #directory: string;
  readonly #logger: Logger | undefined;

  constructor(directory: string, logger: Logger | undefined) {
    this.#directory = directory;
    this.#logger = logger;
  }

  // Read synchronously: a local file, on `call`'s path between the server's initialize
  // answer and the call; each fs.promises step is a thread-pool round trip (five for lstat and
  // readFile), the first of which starts the pool, while the server waits for the next request.
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.#readNow(key));
  }

  #readNow(key: string): string | undefined {
    const path = this.#path(key);
    let info;
    try {
      info = lstatSync(path);
    } catch {
      return undefined;
    }
    const problem = untrusted(info);
    if (problem !== undefined) {
      this.#logger?.debug?.(`Cache file ${path} ignored: ${problem}`, { path });
      return undefined;
    }
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      this.#logger?.debug?.(`Cache file ${path} could not be read`, { path, error });
      return undefined;
    }
  }

  // node:fs/promises loads on the first write or delete: a `call` with a warm cache only reads.
  async set(key: string, value: string): Promise<void> {
    const { mkdir, open, rename, rm } = await import("node:fs/promises");
    await mkdir(this.#directory, { recursive: true, mode: 0o700 });
    const path = this.#path(key);
    // Unique enough among concurrent writers (the "wx" open fails rather than share a file), and
    // no node:crypto to load for it: the directory is the user's own (0700).
    const temporary = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
    const file = await open(temporary, "wx", 0o600);
    try {
      await file.writeFile(value, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { rm } = await import("node:fs/promises");
    await rm(this.#path(key), { force: true });
  }

  #path(key: string): string {
    return join(this.#directory, `${sha256Hex(key)}.json`);
  }
}

/** Why a cache file is not to be trusted (POSIX), or undefined. */
function untrusted(info: {
  isSymbolicLink(): boolean;
  isFile(): boolean;
  uid: number;
  mode: number;
}): string | undefined {
  if (process.platform === "win32") return info.isFile() ? undefined : "not a regular file";
  if (info.isSymbolicLink()) return "it is a symbolic link";
  if (!info.isFile()) return "not a regular file";
  if (typeof process.getuid === "function" && info.uid !== process.getuid())
    return `it belongs to another user (uid ${info.uid})`;
  if ((info.mode & 0o022) !== 0) return `others can write it (mode ${(info.mode & 0o777).toString(8)})`;
  return undefined;
}
