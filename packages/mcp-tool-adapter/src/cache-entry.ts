// Tool listings kept across processes, as `mcp-tool-adapter/cache`: a sub-entry of its own so that
// importing the umbrella does not load the file system and crypto code (import time).
export { createFileCacheStore, defaultCacheDirectory, type FileCacheStoreOptions } from "./cache/file-cache-store.js";
export type { CacheStore, ToolListCacheOptions } from "@mcp-tool-adapter/adapter";
