import type { MCPEngineMessage } from "@mcp-tool-adapter/core";
import { MCPConfigError } from "./errors.js";
import type { ListPagesContext } from "./list-pages.js";
import type { MCPLogLevel } from "./protocol-types.js";
import { PromptSync } from "./prompts.js";
import type { RequestContext } from "./request-outcome.js";
import { ResourceSync } from "./resources.js";
import { isLogLevel, MCP_LOG_LEVELS, ServerLogs } from "./server-logs.js";
import type { Session } from "./session.js";
import type { Logger, MCPToolAdapterOptions } from "./types.js";

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

  constructor(context: ServerFeaturesContext, options: MCPToolAdapterOptions) {
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

  /**
   * Routes one of the server's notifications (the engine checked its shape); `session` is
   * undefined while the connection is still being opened.
   */
  notification(message: MCPEngineMessage, session: Session | undefined): void {
    switch (message.method) {
      case "notifications/resources/list_changed":
        if (session !== undefined) this.resources.listChanged(session);
        break;
      case "notifications/resources/updated":
        this.resources.updated((message.params as { uri: string }).uri);
        break;
      case "notifications/prompts/list_changed":
        if (session !== undefined) this.prompts.listChanged(session);
        break;
      case "notifications/message":
        this.logs.received(message.params);
        break;
      default:
        break;
    }
  }

  /** The session is live: the configured log level and the subscriptions are sent again. */
  sessionOpened(session: Session): void {
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
