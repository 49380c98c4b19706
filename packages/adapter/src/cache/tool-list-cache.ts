import { describeCause } from "../errors.js";
import type { ListPagesContext } from "../list-pages.js";
import type { Session } from "../session.js";
import type { Logger } from "../types.js";
import type { CacheStore, ToolListCacheOptions } from "./cache-store.js";
import { canonicalJson, shortHash, type ServerFingerprint } from "./fingerprint.js";

const DEFAULT_MAX_AGE_MS = 3_600_000;
/** Bumped when the entry's shape changes: older entries are then ignored. */
const ENTRY_FORMAT = 1;

/** What is stored per server: its fingerprint, when and for how long, and the raw tools/list items. */
interface CachedListing {
  format: typeof ENTRY_FORMAT;
  fingerprint: string;
  storedAt: number;
  /** The server's `ttlMs` hint (protocol 2026-07-28), or null without one. */
  ttlMs: number | null;
  tools: unknown[];
}

/** The caching hints of the first tools/list page (protocol 2026-07-28), when the server gave them. */
export interface ListingHints {
  ttlMs?: number;
  /** Who may reuse the listing: anyone (`public`) or only this user (`private`, kept out of a shared store). */
  cacheScope?: "public" | "private";
}

/** What the cache needs from the adapter. */
export interface ToolListCacheContext {
  readonly serverName: string;
  readonly logger: Logger | undefined;
  /** The server's fingerprint on `session` (its endpoint, and what it said in initialize). */
  fingerprint(session: Session): ServerFingerprint;
}

/**
 * Tool listings kept across processes in a CacheStore, one entry per server endpoint. An entry is
 * served only to the same server (endpoint, serverInfo name and version, protocol version and
 * capabilities all equal), only within the server's `ttlMs` hint (2026-07-28) or `maxAgeMs`
 * (earlier protocols), and never after a tools/list_changed: that deletes the entry and makes the
 * next listing go to the server. Whatever goes wrong with the store (unreadable, corrupt, foreign
 * entry) is logged at debug level and the listing goes to the server: never an error.
 */
export class ToolListCache {
  readonly #store: CacheStore;
  readonly #maxAgeMs: number;
  readonly #clock: () => number;
  readonly #context: ToolListCacheContext;
  /** Sessions that saw list_changed: their next listing goes to the server. */
  readonly #stale = new WeakSet<Session>();

  constructor(options: ToolListCacheOptions, context: ToolListCacheContext) {
    this.#store = options.store;
    this.#maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.#clock = options.clock ?? Date.now;
    this.#context = context;
  }

  /**
   * The server's raw tools: from the cache when a valid entry exists, else through `listFromServer`
   * (which reports the first page's hints), stored for the next process.
   */
  async list(
    session: Session,
    listFromServer: (hints: ListingHints) => Promise<unknown[]>,
  ): Promise<{ tools: unknown[]; fromCache: boolean }> {
    const identity = this.#context.fingerprint(session);
    const fingerprint = canonicalJson(identity);
    const key = this.#key(identity);
    if (!this.#stale.has(session)) {
      const cached = await this.#read(key, fingerprint);
      if (cached !== undefined) return { tools: cached, fromCache: true };
    }
    this.#stale.delete(session);
    const hints: ListingHints = {};
    const tools = await listFromServer(hints);
    const storable = hints.cacheScope !== "private" || this.#store.shared !== true;
    if (!storable)
      this.#debug(`entry ${key} not stored: the server marked the listing private and the store is shared`);
    await this.#write(key, {
      format: ENTRY_FORMAT,
      fingerprint,
      storedAt: this.#clock(),
      // A lifetime of 0 removes the entry: a private listing leaves no older one behind either.
      ttlMs: storable ? (hints.ttlMs ?? null) : 0,
      tools,
    });
    return { tools, fromCache: false };
  }

  /** tools/list_changed on `session`: the entry is gone, and the session's next listing asks the server. */
  invalidate(session: Session): void {
    this.#stale.add(session);
    const key = this.#key(this.#context.fingerprint(session));
    this.#store.delete(key).catch((error: unknown) => this.#debug(`could not delete cache entry ${key}`, error));
  }

  /** The session's next listing goes to the server (and replaces the entry): a cached listing proved stale. */
  bypassNext(session: Session): void {
    this.#stale.add(session);
  }

  /** One entry per server endpoint: a new version of the server replaces the entry of the old one. */
  #key(identity: ServerFingerprint): string {
    return `mcp-tool-adapter/tools/${this.#context.serverName}/${shortHash(canonicalJson(identity.endpoint))}`;
  }

  async #read(key: string, fingerprint: string): Promise<unknown[] | undefined> {
    let text: string | undefined;
    try {
      text = await this.#store.get(key);
    } catch (error) {
      this.#debug(`could not read cache entry ${key}`, error);
      return undefined;
    }
    if (text === undefined) return undefined;
    const entry = parseEntry(text);
    if (entry === undefined) {
      this.#debug(`ignored cache entry ${key}: not a tool listing of this version`);
      return undefined;
    }
    if (entry.fingerprint !== fingerprint) {
      this.#debug(`ignored cache entry ${key}: it was stored for another server identity`);
      return undefined;
    }
    const age = this.#clock() - entry.storedAt;
    const lifetime = entry.ttlMs ?? this.#maxAgeMs;
    if (age < 0 || age >= lifetime) {
      this.#debug(`ignored cache entry ${key}: ${age} ms old, trusted for ${lifetime} ms`);
      return undefined;
    }
    this.#debug(`tools listed from the cache (entry ${key}, ${age} ms old)`);
    return entry.tools;
  }

  async #write(key: string, entry: CachedListing): Promise<void> {
    const lifetime = entry.ttlMs ?? this.#maxAgeMs;
    try {
      if (lifetime <= 0) await this.#store.delete(key);
      else await this.#store.set(key, JSON.stringify(entry), { ttlMs: lifetime });
    } catch (error) {
      this.#debug(`could not write cache entry ${key}`, error);
    }
  }

  #debug(message: string, error?: unknown): void {
    const { logger, serverName } = this.#context;
    logger?.debug?.(
      `Tool-list cache of MCP server "${serverName}": ${message}${error === undefined ? "" : `: ${describeCause(error)}`}`,
      error === undefined ? undefined : { error },
    );
  }
}

function parseEntry(text: string): CachedListing | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Partial<CachedListing>;
  const valid =
    entry.format === ENTRY_FORMAT &&
    typeof entry.fingerprint === "string" &&
    typeof entry.storedAt === "number" &&
    (entry.ttlMs === null || (typeof entry.ttlMs === "number" && entry.ttlMs >= 0)) &&
    Array.isArray(entry.tools);
  return valid ? (entry as CachedListing) : undefined;
}

/** The caching hints of a tools/list result, if it has them (2026-07-28: `ttlMs`). */
export function listingHints(result: unknown): ListingHints {
  const { ttlMs, cacheScope } = (result ?? {}) as { ttlMs?: unknown; cacheScope?: unknown };
  const hints: ListingHints = {};
  if (typeof ttlMs === "number" && Number.isSafeInteger(ttlMs) && ttlMs >= 0) hints.ttlMs = ttlMs;
  if (cacheScope === "public" || cacheScope === "private") hints.cacheScope = cacheScope;
  return hints;
}

/** The listing context with its first page's caching hints copied into `hints`. */
export function recordingHints(context: ListPagesContext, hints: ListingHints): ListPagesContext {
  return {
    ...context,
    request: async (session, request, options, signal) => {
      const result = await context.request(session, request, options, signal);
      if (request.params?.["cursor"] === undefined) Object.assign(hints, listingHints(result));
      return result;
    },
  };
}
