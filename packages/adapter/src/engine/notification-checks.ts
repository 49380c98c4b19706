import {
  MCP_FOLLOWED_NOTIFICATIONS,
  MCP_LOG_LEVELS,
  type MCPFollowedNotification,
} from "@mcp-tool-adapter/core/protocol";

/**
 * The checks of the notifications the host hears (core's list), as SDK 1.x's schemas make them
 * (the SDK Client checks each one before its handler runs), written out: the schemas live in
 * SDK 1.x's `types.js`, whose Zod schemas cost some 5 MB of live heap, and servers send these
 * notifications all the time (server-everything logs every few seconds). A test holds each check
 * to the SDK's schema. Params pass as they came (the SDK's params schemas are loose objects).
 */

const LOGGING_LEVELS: ReadonlySet<unknown> = new Set(MCP_LOG_LEVELS);

type Params = Record<string, unknown> | undefined;

/** What is wrong with a notification's params, or undefined when they fit. */
const CHECKS: Readonly<Record<MCPFollowedNotification, (params: Params) => string | undefined>> = {
  "notifications/tools/list_changed": checkBase,
  "notifications/resources/list_changed": checkBase,
  "notifications/prompts/list_changed": checkBase,
  "notifications/resources/updated": (params) =>
    checkBase(params) ?? (typeof params?.uri === "string" ? undefined : "params.uri must be a string"),
  "notifications/message": (params) => {
    const base = checkBase(params);
    if (base !== undefined) return base;
    if (!LOGGING_LEVELS.has(params?.level)) return `params.level must be one of ${[...LOGGING_LEVELS].join(", ")}`;
    if (params?.logger !== undefined && typeof params.logger !== "string") return "params.logger must be a string";
    return Object.hasOwn(params ?? {}, "data") ? undefined : "params.data is required";
  },
};

const FOLLOWED: ReadonlySet<string> = new Set(MCP_FOLLOWED_NOTIFICATIONS);

export function isFollowedNotification(method: string): method is MCPFollowedNotification {
  return FOLLOWED.has(method);
}

/** Why the notification does not fit SDK 1.x's schema for it, or undefined when it does. */
export function notificationProblem(method: MCPFollowedNotification, params: Params): string | undefined {
  return CHECKS[method](params);
}

/** Every notification's params are optional, and `_meta` in them an object. */
function checkBase(params: Params): string | undefined {
  const meta = params?._meta;
  if (meta !== undefined && (typeof meta !== "object" || meta === null || Array.isArray(meta))) {
    return "params._meta must be an object";
  }
  return undefined;
}
