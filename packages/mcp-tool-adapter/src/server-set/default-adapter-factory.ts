import { MCPToolAdapter } from "../mcp-tool-adapter.js";
import { loadedServerAuth } from "./lazy-server-auth.js";
import type { MCPServerSetOptions } from "./options.js";
import type { ServerSetAdapterFactory } from "./types.js";

/**
 * The set's adapters when the caller brings no factory: an MCPToolAdapter per entry with the set's
 * shared options, the entry's own (overrides, roots, log level, recovery) on top, and an OAuth
 * provider for HTTP entries that asked for one or have a stored login.
 */
export function defaultAdapterFactory(options: MCPServerSetOptions): ServerSetAdapterFactory {
  const {
    logger,
    clientFeatures = {},
    interceptors,
    pinning,
    telemetry,
    auth = {},
    recovery,
    onHealthChange,
    engine,
    toolListCache,
    transport,
    closeTimeoutMs,
    callTimeoutMs,
  } = options;
  return (config, { entry, serverName }) => {
    const chosen = typeof engine === "function" ? engine(config, { entry, serverName }) : engine;
    const defaultTimeoutMs = entry.callTimeoutMs ?? callTimeoutMs;
    const ownTransport = transport?.(config, { entry, serverName });
    // The OAuth code (loadedServerAuth) was imported by #connectMember for an HTTP server.
    const authProvider =
      config.transport === "stdio"
        ? undefined
        : entry.auth !== undefined
          ? loadedServerAuth().createServerAuthProvider(config.url, entry.auth, {
              ...(auth.store === undefined ? {} : { store: auth.store }),
              ...(auth.loginHint === undefined ? {} : { loginHint: auth.loginHint(serverName) }),
              ...(auth.interactive === undefined ? {} : { interactive: auth.interactive }),
            })
          : auth.storedLogins === false || hasAuthorizationHeader(config.headers)
            ? undefined
            : // No login prompt here: the config did not ask for OAuth, so a 401 names the login command instead.
              loadedServerAuth().createServerAuthProvider(
                config.url,
                { type: "oauth" },
                {
                  ...(auth.store === undefined ? {} : { store: auth.store }),
                  ...(auth.loginHint === undefined ? {} : { loginHint: auth.loginHint(serverName) }),
                  ...(logger === undefined ? {} : { logger }),
                  onlyWithStoredLogin: true,
                },
              );
    return new MCPToolAdapter(config, {
      ...(logger === undefined ? {} : { logger }),
      // The set's close budget is the adapter's too (its DELETE and close share it); the set waits a
      // little longer, so an adapter that keeps to it is never reported as a timeout.
      ...(closeTimeoutMs === undefined ? {} : { closeTimeoutMs }),
      ...(defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs }),
      ...(chosen === undefined ? {} : { engine: chosen }),
      ...(ownTransport === undefined ? {} : { transport: ownTransport }),
      ...clientFeatures,
      ...(interceptors === undefined ? {} : { interceptors }),
      ...(telemetry === undefined ? {} : { telemetry }),
      ...(toolListCache === undefined ? {} : { toolListCache }),
      ...(pinning === undefined
        ? {}
        : {
            pinning: {
              pins: Object.hasOwn(pinning.lock.servers, serverName)
                ? (pinning.lock.servers[serverName] ?? { tools: {} })
                : { tools: {} },
              ...(pinning.onDrift === undefined ? {} : { onDrift: pinning.onDrift }),
              ...(pinning.onUnpinned === undefined ? {} : { onUnpinned: pinning.onUnpinned }),
            },
          }),
      ...(entry.tools?.overrides === undefined ? {} : { capabilityOverrides: entry.tools.overrides }),
      ...(entry.roots === undefined ? {} : { roots: entry.roots }),
      ...(entry.logLevel === undefined ? {} : { logLevel: entry.logLevel }),
      ...(authProvider === undefined ? {} : { transportOptions: { http: { authProvider } } }),
      ...(onHealthChange === undefined ? {} : { onHealthChange }),
      ...(entry.recovery !== undefined ? { recovery: entry.recovery } : recovery === undefined ? {} : { recovery }),
    });
  };
}

function hasAuthorizationHeader(headers: Readonly<Record<string, string>> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization");
}
