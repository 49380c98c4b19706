import type { MCPServerConfig } from "../config-schema.js";
import type { Logger } from "../types.js";
import type { ToolListCacheOptions } from "./cache-store.js";
import { serverFingerprint } from "./fingerprint.js";
import { ToolListCache } from "./tool-list-cache.js";

/** The adapter's cross-process tool-list cache, when its options ask for one. */
export function toolListCache(
  options: { toolListCache?: ToolListCacheOptions | undefined },
  context: { serverName: string; logger: Logger | undefined; config: MCPServerConfig },
): ToolListCache | undefined {
  if (options.toolListCache === undefined) return undefined;
  const { serverName, logger, config } = context;
  return new ToolListCache(options.toolListCache, {
    serverName,
    logger,
    fingerprint: (session) => serverFingerprint(config, session),
  });
}
