import type { ElicitationHandler, SamplingHandler } from "mcp-tool-adapter";
import { GatewayError } from "./errors.js";
import type { ClientRouter } from "./client-router.js";
import type { DownstreamSession } from "./downstream-session.js";

/** Who an upstream's elicitation or sampling request can go to: a 2025 session, or a 2026-07-28 call (which refuses). */
export type RoutedClient = Pick<DownstreamSession, "declares" | "elicit" | "sample">;

/**
 * An upstream server's elicitation and sampling requests, passed to the downstream client whose
 * call is running on that server when it declared the capability; refused with a clear error when
 * it did not, or when the request cannot be attributed to one client (see ClientRouter). The
 * upstream sees a JSON-RPC error naming what is missing.
 */
export function forwardClientRequests(router: ClientRouter<RoutedClient>): {
  onElicitation: ElicitationHandler;
  onSampling: SamplingHandler;
} {
  const clientFor = (server: string, capability: "elicitation" | "sampling"): RoutedClient => {
    const { session, problem } = router.route(server);
    if (session === undefined) {
      throw new GatewayError(
        "CLIENT_REQUEST_UNATTRIBUTED",
        `MCP server "${server}" asked for ${capability}, but ${problem}; it is refused rather than shown to another client's user.`,
      );
    }
    if (!session.declares(capability)) {
      throw new GatewayError(
        "CLIENT_CAPABILITY_MISSING",
        `MCP server "${server}" asked for ${capability}, but the gateway's client did not declare the ${capability} capability.`,
      );
    }
    return session;
  };
  return {
    onElicitation: (request, context) => {
      const session = clientFor(context.serverName, "elicitation");
      return session.elicit(
        request.mode === "url"
          ? { mode: "url", message: request.message, url: request.url, elicitationId: request.elicitationId }
          : { mode: "form", message: request.message, requestedSchema: request.requestedSchema as never },
        context.signal,
      );
    },
    onSampling: (request, context) => clientFor(context.serverName, "sampling").sample(request, context.signal),
  };
}
