// The contract of a persistent cache, in a type file: the adapter's tool-list cache uses it, a file
// store (the "mcp-tool-adapter" package) and a user's Redis-like store implement it.

/**
 * A key-value store that outlives the process, for tool listings. Values are JSON text. Every
 * method may reject; the adapter then lists from the server as if the cache were empty, and logs
 * at debug level. A store may drop entries at any time.
 */
export interface CacheStore {
  /** The value stored under `key`, or undefined when there is none. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`; `ttlMs`, when given, is how long the entry can be of use at most (a store may expire it then). */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Removes the entry (no error when there is none). */
  delete(key: string): Promise<void>;
  /**
   * True for a store that several users share (a team's Redis): a listing the server marks
   * `cacheScope: "private"` (protocol 2026-07-28) is then not stored, as a shared HTTP cache would
   * not store a private response. Default false: a store of one user, like the file store.
   */
  readonly shared?: boolean;
}

/** The adapter option `toolListCache`. */
export interface ToolListCacheOptions {
  store: CacheStore;
  /**
   * How long a listing without a caching hint (servers before protocol 2026-07-28) is served from
   * the cache, in ms; default 3600000 (one hour). A 2026-07-28 listing is served no longer than its
   * `ttlMs` (0: never), whatever this says.
   */
  maxAgeMs?: number;
  /** Wall clock in ms since the epoch, for the entries' age; default Date.now. */
  clock?: () => number;
}
