import type { NotificationRoutes } from "./connection/notification-routes.js";
import { MCPConfigError } from "./errors.js";
import type { ListPagesContext } from "./list-pages.js";
import type { MCPLogLevel } from "./protocol-types.js";
import { PromptSync } from "./prompts.js";
import type { RequestContext } from "./request-outcome.js";
import { ResourceSync } from "./resources.js";
import { isLogLevel, MCP_LOG_LEVELS, ServerLogs } from "./server-logs.js";
import type { Session } from "./session.js";
import type { PromptsChangedListener, ResourcesChangedListener, ServerLogListener } from "./protocol-types.js";
import type { Logger } from "./types.js";

/** The adapter options these features read (MCPToolAdapterOptions has them all). */
export interface ServerFeatureOptions {
  readonly logLevel?: MCPLogLevel;
  readonly onLog?: ServerLogListener;
  readonly maxLogMessagesPerSecond?: number;
  readonly onResourcesChanged?: ResourcesChangedListener;
  readonly onPromptsChanged?: PromptsChangedListener;
}

const DEFAULT_MAX_LOG_MESSAGES_PER_SECOND = 200;

export interface ServerFeaturesContext extends ListPagesContext, RequestContext {
  readonly logger: Logger | undefined;
  current(): Session | undefined;
}

/**
 * Everything of a server besides tools: resources, prompts and completions, and its log
 * messages. The adapter makes one, hands it each new session, and delegates to its parts.
 */
export class ServerFeatures {
  readonly resources: ResourceSync;
  readonly prompts: PromptSync;
  readonly logs: ServerLogs;

  constructor(context: ServerFeaturesContext, options: ServerFeatureOptions) {
    const level = checkLogLevel(options.logLevel);
    this.resources = new ResourceSync(context);
    this.prompts = new PromptSync(context);
    const maxPerSecond = options.maxLogMessagesPerSecond;
    this.logs = new ServerLogs({
      ...context,
      level,
      maxPerSecond:
        maxPerSecond !== undefined && Number.isFinite(maxPerSecond) && maxPerSecond >= 0
          ? maxPerSecond
          : DEFAULT_MAX_LOG_MESSAGES_PER_SECOND,
    });
    if (options.onLog !== undefined) this.logs.addListener(options.onLog);
    if (options.onResourcesChanged !== undefined) this.resources.addChangeListener(options.onResourcesChanged);
    if (options.onPromptsChanged !== undefined) this.prompts.addChangeListener(options.onPromptsChanged);
  }

  /** Registers the notifications these features follow into the connection's routing table. */
  followNotifications(routes: NotificationRoutes): void {
    routes.on("notifications/resources/list_changed", (_params, session) => {
      if (session !== undefined) this.resources.listChanged(session);
    });
    routes.on("notifications/resources/updated", (params) => {
      this.resources.updated((params as { uri: string }).uri);
    });
    routes.on("notifications/prompts/list_changed", (_params, session) => {
      if (session !== undefined) this.prompts.listChanged(session);
    });
    routes.on("notifications/message", (params) => {
      this.logs.received(params);
    });
  }

  /** The session is live: the configured log level and the subscriptions are sent again. */
  opened(session: Session): void {
    this.resources.sessionOpened(session);
    void this.logs.sessionOpened(session);
  }
}

function checkLogLevel(level: unknown): MCPLogLevel | undefined {
  if (level === undefined || isLogLevel(level)) return level;
  throw new MCPConfigError(
    `Option "logLevel" must be one of ${MCP_LOG_LEVELS.join(", ")}; got ${JSON.stringify(level)}. Fix the adapter options (or the server's "logLevel" in the config file).`,
    [{ path: "/logLevel", message: `must be one of ${MCP_LOG_LEVELS.join(", ")}` }],
  );
}
