import {
  MCPConfigError,
  type HttpMCPServerConfig,
  type Logger,
  type MCPEngine,
  type MCPServerConfig,
} from "@mcp-tool-adapter/adapter";
import type { CredentialStore, InteractiveOptions, NodeOAuthClientProvider } from "@mcp-tool-adapter/oauth";
import { loadServerAuth } from "./server-set/lazy-server-auth.js";
import type { ServerAuth } from "./server-set/server-auth.js";

/** A server config as the umbrella's MCPToolAdapter takes it: the adapter's, plus a server set entry's `auth`. */
export type MCPToolAdapterConfig = MCPServerConfig & {
  /** How an HTTP server authorizes, as in a server set entry or a config file; see docs/auth.md. */
  auth?: ServerAuth;
};

/** For a config with `auth`: where logins are stored, what a "needs a login" error says, and whether a human can log in. */
export interface MCPToolAdapterAuthOptions {
  /** Default: the file store in the user's config directory (the one `mcp-tool-adapter login` writes). */
  store?: CredentialStore;
  /** The words of the "needs a login" errors. Default: call login() from mcp-tool-adapter for the server's URL. */
  loginHint?: string;
  /** A human is there: the provider logs in (or steps up) during a connection instead of failing with AUTH_REQUIRED. */
  interactive?: InteractiveOptions;
}

/** The OAuth provider of a config's `auth`, made once, on the first connect (the OAuth code loads only then). */
export type LazyAuthProvider = () => Promise<NodeOAuthClientProvider>;

/**
 * Splits `auth` off the config (the base adapter refuses it) and checks it where the constructor
 * runs: HTTP servers only, a type the OAuth provider knows, and not beside a provider given
 * directly. The provider itself is built on the first connect, so a program that never connects
 * such a server never loads the OAuth code.
 */
export function splitConfigAuth(
  config: MCPToolAdapterConfig,
  context: {
    /** An authProvider option (or transportOptions.http.authProvider) was given too. */
    givenProvider: boolean;
    /** The caller's own transport carries the connection, so the provider could not reach it. */
    ownTransport: boolean;
    options: MCPToolAdapterAuthOptions | undefined;
    logger: Logger | undefined;
  },
): { server: MCPServerConfig; provider?: LazyAuthProvider } {
  // Anything but an object is the base adapter's to refuse, with its own words.
  const raw: unknown = config;
  if (typeof raw !== "object" || raw === null || !("auth" in raw)) return { server: config };
  const { auth, ...server } = config as MCPServerConfig & { auth?: unknown };
  if (auth === undefined) return { server };
  const refuse = (message: string): never => {
    const name = typeof server.name === "string" ? server.name : "(unnamed)";
    throw new MCPConfigError(`Invalid MCP server config "${name}": ${message}.`, [{ path: "/auth", message }]);
  };
  if (server.transport === "stdio")
    refuse(`"auth" applies to HTTP servers only; a stdio server gets its credentials through env`);
  const type = typeof auth === "object" && auth !== null ? (auth as { type?: unknown }).type : undefined;
  if (type === "bearer")
    refuse(
      `"auth" of type "bearer" is a config-file shorthand; give the token as headers: { Authorization: "Bearer …" }`,
    );
  if (type !== "oauth" && type !== "client_credentials")
    refuse(
      `"auth" must be an object with "type": "oauth" or "client_credentials", got ${type === undefined ? (Array.isArray(auth) ? "an array" : typeof auth) : `type ${JSON.stringify(type)}`}`,
    );
  if (context.givenProvider) refuse(`"auth" and an authProvider option both say how to authorize; keep one of them`);
  if (context.ownTransport)
    refuse(
      `"auth" applies to the default transports, and a transport option was given; give that transport an authProvider instead`,
    );
  const http = server as HttpMCPServerConfig;
  const serverAuth = auth as ServerAuth;
  const { options = {}, logger } = context;
  let provider: Promise<NodeOAuthClientProvider> | undefined;
  const lazy: LazyAuthProvider = () =>
    (provider ??= loadServerAuth().then(({ createServerAuthProvider }) =>
      createServerAuthProvider(http.url, serverAuth, {
        ...(options.store === undefined ? {} : { store: options.store }),
        ...(options.loginHint === undefined ? {} : { loginHint: options.loginHint }),
        ...(options.interactive === undefined ? {} : { interactive: options.interactive }),
        ...(logger === undefined ? {} : { logger }),
      }),
    ));
  return { server: http, provider: lazy };
}

/** An engine that builds its own transports (engine-2026) gets the config's provider with each connect. */
export function withLazyAuthProvider(engine: MCPEngine, provider: LazyAuthProvider): MCPEngine {
  return {
    name: engine.name,
    protocols: engine.protocols,
    connect: async (request) => engine.connect({ ...request, authProvider: await provider() }),
  };
}
