import {
  createFileStore,
  defaultCredentialsDirectory,
  login,
  logout,
  MCPAuthError,
  openInBrowser,
  tokensExpireAt,
  type CredentialStore,
} from "@mcp-tool-adapter/oauth";
import { authProviderOptions, cliLoginHint } from "../../server-set/server-auth.js";
import type { ServerEntry } from "../../server-set/server-entry.js";
import { loadSelectedConfig } from "../connect-servers.js";
import { formatTable } from "../format.js";
import type { CliContext } from "../io.js";
import { CliUsageError } from "../usage-error.js";

export interface AuthCommandOptions {
  config?: string;
  json: boolean;
}

/** The store every auth command and every connection of the CLI uses. */
export function cliCredentialStore(context: CliContext): CredentialStore {
  return createFileStore({ directory: defaultCredentialsDirectory(context.env) });
}

async function httpEntry(
  context: CliContext,
  options: AuthCommandOptions,
  server: string,
): Promise<ServerEntry & { url: string }> {
  const config = await loadSelectedConfig(context, { ...options, servers: [server] });
  const entry = config.servers[server];
  if (entry === undefined || entry.transport === "stdio") {
    throw new CliUsageError(`Server "${server}" is not an HTTP server; only remote servers log in.`);
  }
  return entry;
}

/** `login <server>`: the browser flow (or machine credentials) for one server of the config. */
export async function runLoginCommand(
  context: CliContext,
  options: AuthCommandOptions & { server: string; scope?: string; timeoutMs?: number },
): Promise<number> {
  const entry = await httpEntry(context, options, options.server);
  // Without an `auth` entry: a plain OAuth login (the server's 401 names its authorization server).
  const auth = entry.auth ?? { type: "oauth" };
  const store = cliCredentialStore(context);
  try {
    const result = await login(entry.url, {
      ...authProviderOptions(auth, { store, loginHint: cliLoginHint(options.server, options.config) }),
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      showAuthorizationUrl: (url) =>
        context.showAuthorizationUrl
          ? context.showAuthorizationUrl(url)
          : openInBrowser(url, { write: (text) => context.stderr.write(text), isTTY: context.isTTY, env: context.env }),
    });
    const expires = result.expiresAt === undefined ? undefined : new Date(result.expiresAt).toISOString();
    if (options.json) {
      context.out(
        JSON.stringify(
          {
            server: options.server,
            ok: true,
            authorizationServer: result.authorizationServer,
            scope: result.scope,
            expiresAt: expires,
          },
          null,
          2,
        ),
      );
    } else {
      context.out(
        context.colors.green(`Logged in to ${options.server}`) +
          ` (authorization server ${result.authorizationServer ?? "?"}${result.scope ? `, scopes: ${result.scope}` : ""}${expires ? `, token expires ${expires}` : ""}).`,
      );
    }
    return 0;
  } catch (error) {
    if (!MCPAuthError.isInstance(error)) throw error;
    if (options.json) {
      context.out(
        JSON.stringify(
          { server: options.server, ok: false, error: { code: error.code, message: error.message } },
          null,
          2,
        ),
      );
    } else {
      context.err(context.colors.red(`error: ${error.message}`));
    }
    return 1;
  }
}

/** `logout <server>`: forgets the stored login. */
export async function runLogoutCommand(
  context: CliContext,
  options: AuthCommandOptions & { server: string },
): Promise<number> {
  const entry = await httpEntry(context, options, options.server);
  const authorizationServer = entry.auth?.authorizationServer;
  const removed = await logout(entry.url, {
    store: cliCredentialStore(context),
    ...(authorizationServer === undefined ? {} : { authorizationServer }),
  });
  if (options.json) context.out(JSON.stringify({ server: options.server, removed }, null, 2));
  else context.out(removed ? `Logged out of ${options.server}.` : `${options.server} had no stored login.`);
  return 0;
}

/** What `auth status --json` reports per server; never a token. */
export interface AuthStatusEntry {
  server: string;
  url: string;
  auth: string;
  status: "logged-in" | "expired" | "not-logged-in";
  authorizationServer?: string;
  scope?: string;
  expiresAt?: string;
  refreshable?: boolean;
}

/** `auth status`: who is logged in where, until when. */
export async function runAuthStatusCommand(context: CliContext, options: AuthCommandOptions): Promise<number> {
  const config = await loadSelectedConfig(context, options);
  const store = cliCredentialStore(context);
  const rows: AuthStatusEntry[] = [];
  for (const [server, entry] of Object.entries(config.servers)) {
    if (entry.transport === "stdio") continue;
    const stored = await store.read(entry.url, entry.auth?.authorizationServer);
    // An entry without `auth` is listed once someone logged in to it.
    if (entry.auth === undefined && stored?.tokens === undefined) continue;
    const expiresAt = stored === undefined ? undefined : tokensExpireAt(stored);
    const hasTokens = stored?.tokens !== undefined;
    rows.push({
      server,
      url: entry.url,
      auth: entry.auth?.type ?? "oauth (no auth entry)",
      status: !hasTokens
        ? "not-logged-in"
        : expiresAt !== undefined && expiresAt <= Date.now()
          ? "expired"
          : "logged-in",
      ...(stored?.authorizationServer === undefined ? {} : { authorizationServer: stored.authorizationServer }),
      ...(stored?.tokens?.scope === undefined ? {} : { scope: stored.tokens.scope }),
      ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
      ...(hasTokens ? { refreshable: stored.tokens.refresh_token !== undefined } : {}),
    });
  }
  if (options.json) {
    context.out(JSON.stringify({ servers: rows }, null, 2));
    return 0;
  }
  if (rows.length === 0) {
    context.out('No server in this config has an "auth" entry or a stored login.');
    return 0;
  }
  const { colors } = context;
  const header = ["SERVER", "AUTH", "STATUS", "AUTHORIZATION SERVER", "SCOPES", "EXPIRES"].map((t) => colors.dim(t));
  const lines = rows.map((row) => [
    colors.bold(row.server),
    row.auth,
    row.status === "logged-in"
      ? colors.green("logged in")
      : row.status === "expired"
        ? colors.yellow(row.refreshable ? "expired (refreshes on use)" : "expired")
        : colors.red("not logged in"),
    row.authorizationServer ?? "-",
    row.scope ?? "-",
    row.expiresAt ?? "-",
  ]);
  for (const line of formatTable([header, ...lines], context.isTTY ? context.columns : undefined)) context.out(line);
  return 0;
}
