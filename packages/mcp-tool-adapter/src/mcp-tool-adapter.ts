import {
  MCPToolAdapter as BaseMCPToolAdapter,
  type MCPToolAdapterOptions as BaseMCPToolAdapterOptions,
} from "@mcp-tool-adapter/adapter";
import {
  splitConfigAuth,
  withLazyAuthProvider,
  type MCPToolAdapterAuthOptions,
  type MCPToolAdapterConfig,
} from "./adapter-auth.js";
import { buildDefaultTransport, withMessageLimits, type DefaultTransportOptions } from "./default-transport.js";

export interface MCPToolAdapterOptions extends BaseMCPToolAdapterOptions {
  /**
   * Options for the default transports; ignored when `transport` is given. `http.authProvider`
   * also reaches an `engine` that builds its own transports (engine-2026).
   */
  transportOptions?: DefaultTransportOptions;
  /** For a config with `auth`: the login store, the "needs a login" words, and whether a human can log in. */
  auth?: MCPToolAdapterAuthOptions;
}

/**
 * The adapter with batteries: without a `transport` option it builds the stdio, SSE or
 * streamable-HTTP transport the config names, a fresh one per connect (so reconnect works).
 * With `maxResultBytes`, those transports' `maxMessageBytes` default to a limit derived from it.
 * A config's `auth` (as in a server set entry or a config file) becomes an OAuth provider that
 * uses the stored login (`mcp-tool-adapter login`, `login()`) and refreshes it.
 */
export class MCPToolAdapter extends BaseMCPToolAdapter {
  constructor(config: MCPToolAdapterConfig, options: MCPToolAdapterOptions = {}) {
    const { transportOptions, auth: authOptions, ...adapterOptions } = options;
    const defaults = withMessageLimits(
      { ...(options.logger === undefined ? {} : { logger: options.logger }), ...transportOptions },
      options.maxResultBytes,
    );
    // An engine that builds its own transports (engine-2026) takes the same OAuth provider.
    const authProvider = adapterOptions.authProvider ?? transportOptions?.http?.authProvider;
    const { server, provider } = splitConfigAuth(config, {
      givenProvider: authProvider !== undefined,
      ownTransport: adapterOptions.transport !== undefined && typeof adapterOptions.engine !== "object",
      options: authOptions,
      logger: options.logger,
    });
    const { engine } = adapterOptions;
    super(server, {
      ...adapterOptions,
      ...(authProvider === undefined ? {} : { authProvider }),
      ...(provider !== undefined && typeof engine === "object"
        ? { engine: withLazyAuthProvider(engine, provider) }
        : {}),
      transport:
        adapterOptions.transport ??
        (provider === undefined
          ? (serverConfig) => buildDefaultTransport(serverConfig, defaults)
          : async (serverConfig) =>
              buildDefaultTransport(serverConfig, {
                ...defaults,
                http: { ...defaults.http, authProvider: await provider() },
              })),
    });
  }
}
