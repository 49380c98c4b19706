import {
  MCPToolAdapter as BaseMCPToolAdapter,
  type MCPServerConfig,
  type MCPToolAdapterOptions as BaseMCPToolAdapterOptions,
} from "@mcp-tool-adapter/adapter";
import { buildDefaultTransport, withMessageLimits, type DefaultTransportOptions } from "./default-transport.js";

export interface MCPToolAdapterOptions extends BaseMCPToolAdapterOptions {
  /**
   * Options for the default transports; ignored when `transport` is given. `http.authProvider`
   * also reaches an `engine` that builds its own transports (engine-2026).
   */
  transportOptions?: DefaultTransportOptions;
}

/**
 * The adapter with batteries: without a `transport` option it builds the stdio, SSE or
 * streamable-HTTP transport the config names, a fresh one per connect (so reconnect works).
 * With `maxResultBytes`, those transports' `maxMessageBytes` default to a limit derived from it.
 */
export class MCPToolAdapter extends BaseMCPToolAdapter {
  constructor(config: MCPServerConfig, options: MCPToolAdapterOptions = {}) {
    const { transportOptions, ...adapterOptions } = options;
    const defaults = withMessageLimits(
      { ...(options.logger === undefined ? {} : { logger: options.logger }), ...transportOptions },
      options.maxResultBytes,
    );
    // An engine that builds its own transports (engine-2026) takes the same OAuth provider.
    const authProvider = adapterOptions.authProvider ?? transportOptions?.http?.authProvider;
    super(config, {
      ...adapterOptions,
      ...(authProvider === undefined ? {} : { authProvider }),
      transport: adapterOptions.transport ?? ((serverConfig) => buildDefaultTransport(serverConfig, defaults)),
    });
  }
}
