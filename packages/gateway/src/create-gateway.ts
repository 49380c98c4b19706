import { GatewayError } from "./errors.js";
import { ServerSetGateway, type Gateway, type GatewayOptions } from "./gateway.js";
import { PerClientGateway } from "./per-client-gateway.js";

/** Sessions with their own upstream connections at once, unless `upstreamPerClient.maxSessions` says otherwise. */
export const DEFAULT_MAX_CLIENT_SESSIONS = 16;

/** A server set served as one MCP server; see GatewayOptions, and `upstreamPerClient` for per-session upstreams. */
export function createGateway(options: GatewayOptions): Gateway {
  const perClient = options.upstreamPerClient;
  if (perClient === undefined || perClient === false) return new ServerSetGateway(options);
  const maxSessions =
    perClient === true ? DEFAULT_MAX_CLIENT_SESSIONS : (perClient.maxSessions ?? DEFAULT_MAX_CLIENT_SESSIONS);
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      `upstreamPerClient.maxSessions must be a whole number of at least 1, and it is ${String(maxSessions)}.`,
    );
  }
  const shared = { ...options, upstreamPerClient: false };
  return new PerClientGateway({ options: shared, maxSessions, create: (own) => new ServerSetGateway(own) });
}
