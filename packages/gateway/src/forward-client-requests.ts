import type { ElicitationHandler, SamplingHandler } from "mcp-tool-adapter";
import type { ClientRequestContext, MCPRoot, RootsListHandler } from "@mcp-tool-adapter/adapter";
import { GatewayError } from "./errors.js";
import type { ClientRouter } from "./client-router.js";
import type { DownstreamSession } from "./downstream-session.js";

/**
 * Who an upstream's elicitation, sampling or roots request can go to: a 2025 session, or a
 * 2026-07-28 call. Only a 2026-07-28 call is asked for roots (`listRoots`): a 2025 session's roots
 * reach the upstream ahead of time (see ServerSetGateway's roots), and it answers with those.
 */
export type RoutedClient = Pick<DownstreamSession, "declares" | "elicit" | "sample"> & {
  /** The client's roots for this request, asked now; undefined when this client is not asked (the shared list answers). */
  listRoots?(signal: AbortSignal): Promise<readonly MCPRoot[]> | undefined;
};

export interface ForwardClientRequestsOptions {
  readonly router: ClientRouter<RoutedClient>;
  /** Servers whose config entry sets `roots`: they keep those, whoever's call runs. */
  readonly fixedRoots: ReadonlySet<string>;
}

/**
 * An upstream server's elicitation and sampling requests, passed to the downstream client whose
 * call asked (the call the request names over streamable HTTP, else the client whose call is
 * running on that server) when it declared the capability; refused with a clear error when it did
 * not, or when the request cannot be attributed to one client (see ClientRouter). The upstream sees
 * a JSON-RPC error naming what is missing.
 *
 * Its `roots/list`: when it is asked during the call of a 2026-07-28 client that declared roots
 * (the call it names over streamable HTTP, else the one client's call running there), that client
 * is asked (an `input_required` holding a roots request) and its roots are the answer.
 * Otherwise the upstream connection's shared list answers: the config's `roots` for that server, or
 * the union of the connected 2025-era clients' roots. That includes a request that cannot be tied to
 * one call (outside any call, or while calls of several clients run on that server): unlike a
 * question, a roots list shown to the wrong client's server is what the shared connection had anyway.
 */
export function forwardClientRequests(options: ForwardClientRequestsOptions): {
  onElicitation: ElicitationHandler;
  onSampling: SamplingHandler;
  onRootsList: RootsListHandler;
} {
  const { router, fixedRoots } = options;
  const clientFor = (context: ClientRequestContext, capability: "elicitation" | "sampling"): RoutedClient => {
    const server = context.serverName;
    const { session, problem } = router.route(server, context.relatedCall?.caller);
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
      const session = clientFor(context, "elicitation");
      return session.elicit(
        request.mode === "url"
          ? { mode: "url", message: request.message, url: request.url, elicitationId: request.elicitationId }
          : { mode: "form", message: request.message, requestedSchema: request.requestedSchema as never },
        context.signal,
      );
    },
    onSampling: (request, context) => clientFor(context, "sampling").sample(request, context.signal),
    onRootsList: (context) => {
      if (fixedRoots.has(context.serverName)) return context.roots;
      const { session } = router.route(context.serverName, context.relatedCall?.caller);
      return session?.listRoots?.(context.signal) ?? context.roots;
    },
  };
}
