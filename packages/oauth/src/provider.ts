import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { StepUpAuthProvider } from "@mcp-tool-adapter/core";
import { checkAuthorizationUrl, checkDiscoveredMetadata } from "./checks.js";
import { exchangeIdTokenForAssertion, jwtBearerGrantParams } from "./cross-app-access.js";
import { MCPAuthError } from "./errors.js";
import { createFileStore } from "./file-store.js";
import { checkProviderOptions } from "./option-checks.js";
import type { LoginInteraction } from "./login-types.js";
import type { CrossAppAccessOptions, NodeOAuthProviderOptions } from "./provider-options.js";
import { sameAuthorizationServer, type CredentialStore, type StoredCredentials } from "./store.js";

/** Placeholder redirect for connections: never visited (an interactive one runs a login with its own listener). */
const NO_BROWSER_REDIRECT = "http://127.0.0.1/callback";

/**
 * The SDK's `OAuthClientProvider` for Node. Pass it to the HTTP transports (`authProvider`): it
 * serves stored tokens, lets the SDK refresh them on a 401, and saves what the SDK hands back.
 * Unless `interactive`, a connection never opens a browser: when a human must log in, the request
 * fails with `AUTH_REQUIRED` (never logged in, or a 403 insufficient_scope naming scopes the login
 * lacks) or `AUTH_FAILED` (the stored login was rejected) saying how to log in; {@link login} does
 * that, and an interactive provider calls it itself.
 */
export class NodeOAuthClientProvider implements OAuthClientProvider, StepUpAuthProvider {
  readonly serverUrl: string;
  readonly #options: NodeOAuthProviderOptions;
  readonly #store: CredentialStore;
  readonly #now: () => number;
  #loaded: Promise<StoredCredentials> | undefined;
  #record: StoredCredentials | undefined;
  #verifier: string | undefined;
  #tokensRejected = false;
  #interaction: LoginInteraction | undefined;
  #hideStoredTokens = false;
  #discoveredNow = false;
  #freshLogin = false;
  /** Scopes a `403 insufficient_scope` named that the stored tokens lack (a step-up is due). */
  #stepUpScope: string | undefined;
  /** Why the store could not be read, kept for the 401 (onlyWithStoredLogin). */
  #unreadableStore: Error | undefined;
  /** The last identity assertion grant (cross-app access): a credential, redacted like the tokens. */
  #assertion: string | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(serverUrl: string | URL, options: NodeOAuthProviderOptions = {}) {
    this.serverUrl = String(serverUrl);
    this.#options = options;
    this.#store = options.store ?? createFileStore(options.logger ? { logger: options.logger } : {});
    this.#now = options.now ?? Date.now;
    checkProviderOptions(this.serverUrl, options);
    const machine = options.clientCredentials;
    if (machine?.privateKey !== undefined && machine.algorithm !== undefined) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: machine.clientId,
        subject: machine.clientId,
        privateKey: machine.privateKey,
        alg: machine.algorithm,
      });
    }
  }

  /** Makes this provider the one a login drives: a real redirect URI, a state, and a browser. Staged writes until {@link commit}. */
  beginInteraction(interaction: LoginInteraction): void {
    this.#interaction = interaction;
    this.#hideStoredTokens = true;
  }

  /** The stored credentials as they are now (loaded once per provider). */
  async credentials(): Promise<StoredCredentials> {
    const configured = this.#options.authorizationServer;
    const empty: StoredCredentials = {
      resource: this.serverUrl,
      ...(configured === undefined ? {} : { authorizationServer: configured }),
    };
    this.#loaded ??= this.#store.read(this.serverUrl, configured).then(
      (found) => found ?? empty,
      (error: unknown) => {
        if (this.#options.onlyWithStoredLogin !== true) throw error;
        // A server that needs no login keeps working; one that answers 401 gets this error then.
        this.#unreadableStore = error instanceof Error ? error : new Error(String(error));
        this.#options.logger?.warn?.("The credentials store could not be read; connecting without a stored login", {
          server: this.serverUrl,
          error: error instanceof Error ? error.message : String(error),
        });
        return empty;
      },
    );
    this.#record ??= await this.#loaded;
    return this.#record;
  }

  /** Writes what a login gathered. Until then a login changes nothing stored. */
  async commit(): Promise<StoredCredentials> {
    const record = await this.credentials();
    await this.#store.write(record);
    return record;
  }

  async #update(change: Partial<StoredCredentials>): Promise<void> {
    const before = await this.credentials();
    const after = { ...before, ...change };
    this.#record = after;
    if (this.#interaction !== undefined) return;
    if (JSON.stringify(after) === JSON.stringify(before)) return;
    await this.#store.write(after);
  }

  get redirectUrl(): string | undefined {
    if (this.#isMachine()) return undefined;
    return this.#interaction?.redirectUrl ?? NO_BROWSER_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.#options.scopes?.join(" ");
    const common = { client_name: this.#options.clientName ?? "mcp-tool-adapter", ...(scope ? { scope } : {}) };
    if (this.#options.crossAppAccess !== undefined) {
      return {
        ...common,
        redirect_uris: [],
        grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        token_endpoint_auth_method: "client_secret_basic",
      };
    }
    if (this.#options.clientCredentials !== undefined) {
      return {
        ...common,
        redirect_uris: [],
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: this.#options.clientCredentials.privateKey
          ? "private_key_jwt"
          : "client_secret_basic",
      };
    }
    return {
      ...common,
      redirect_uris: [this.redirectUrl ?? NO_BROWSER_REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.#options.client?.clientSecret ? "client_secret_basic" : "none",
      // RFC 8252: a native app's loopback redirect may use any port.
      application_type: "native",
    } as OAuthClientMetadata;
  }

  state(): string {
    if (this.#interaction !== undefined) return this.#interaction.state;
    // The SDK's own authorization URL is never followed here: redirectToAuthorization runs a login.
    if (this.#options.interactive !== undefined) return "unused";
    if (this.#stepUpScope !== undefined) throw this.#needsScope(this.#stepUpScope);
    throw this.#needsLogin();
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const configured = this.#options.clientCredentials ?? this.#options.crossAppAccess ?? this.#options.client;
    if (configured !== undefined) {
      const issuer = this.#options.authorizationServer;
      return {
        client_id: configured.clientId,
        ...(configured.clientSecret === undefined ? {} : { client_secret: configured.clientSecret }),
        ...(issuer === undefined ? {} : { issuer }),
      };
    }
    const registered = (await this.credentials()).clientInformation;
    // Authorization servers (oidc-provider among them) refuse scopes beyond those a client registered with.
    const registeredScope = (registered as { scope?: unknown } | undefined)?.scope;
    const wanted = this.#interaction?.scope?.split(" ").filter(Boolean) ?? [];
    if (typeof registeredScope === "string" && !wanted.every((scope) => registeredScope.split(" ").includes(scope))) {
      return undefined;
    }
    return registered;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    // A configured client is the config's to keep; only registered ones are stored.
    if (this.#options.client !== undefined || this.#isMachine()) return;
    if (this.#interaction !== undefined && "redirect_uris" in clientInformation) {
      const uris = (clientInformation as { redirect_uris?: unknown }).redirect_uris;
      if (Array.isArray(uris) && uris.some((uri) => typeof uri !== "string" || !isLoopbackRedirect(uri))) {
        throw new MCPAuthError(
          "AUTH_FAILED",
          "The authorization server registered this client with a redirect URI that is not a loopback address; " +
            "codes could be sent elsewhere, so the login stopped and nothing was stored.",
        );
      }
    }
    if (this.#interaction === undefined && this.#options.interactive !== undefined) {
      // Registered for the SDK's authorization URL, which is never followed: the login registers its own.
      this.#record = { ...(await this.credentials()), clientInformation };
      return;
    }
    await this.#update({ clientInformation });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A login starts afresh (new account, new scopes): the stored tokens are not offered to the SDK.
    if (this.#hideStoredTokens) return undefined;
    const tokens = (await this.credentials()).tokens;
    if (this.#stepUpScope === undefined || this.#interaction !== undefined || tokens?.refresh_token === undefined) {
      return tokens;
    }
    // A refresh returns the same scopes, and the SDK gives up after one try: a step-up needs a login.
    const { refresh_token: _withheld, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  /**
   * The server answered `403 insufficient_scope` naming `scope` (transport-http reports it: core's
   * StepUpAuthProvider). Scopes
   * the stored login lacks make the next authorization a step-up: a login in interactive mode,
   * else `AUTH_REQUIRED` naming them.
   */
  async noteInsufficientScope(scope: string | undefined): Promise<void> {
    const granted = new Set((await this.credentials()).tokens?.scope?.split(" ") ?? []);
    const lacking = scope?.split(" ").filter((wanted) => wanted !== "" && !granted.has(wanted)) ?? [];
    this.#stepUpScope = lacking.length === 0 ? undefined : unionOfScopes(...granted, scope);
  }

  /** True once after an interactive login stored new tokens: the request that needed it may be sent again. */
  takeFreshLogin(): boolean {
    const fresh = this.#freshLogin;
    this.#freshLogin = false;
    return fresh;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    if (typeof tokens.token_type !== "string" || tokens.token_type.toLowerCase() !== "bearer") {
      throw new MCPAuthError(
        "AUTH_FAILED",
        `The authorization server issued a token of type "${tokens.token_type}"; MCP needs a Bearer token. Nothing was stored.`,
      );
    }
    this.#tokensRejected = false;
    this.#hideStoredTokens = false;
    await this.#update({ tokens, tokensReceivedAt: this.#now() });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.#interaction === undefined && this.#options.interactive !== undefined) {
      await this.#loginInteractively(authorizationUrl.searchParams.get("scope") ?? undefined);
      return;
    }
    if (this.#interaction === undefined) throw this.#needsLogin();
    checkAuthorizationUrl(authorizationUrl, this.#record?.discovery, this.#interaction.redirectUrl);
    await this.#interaction.showAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) {
      throw new MCPAuthError(
        "AUTH_FAILED",
        "No PKCE verifier: the authorization code does not belong to a login of this process.",
      );
    }
    return this.#verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams> | undefined {
    if (this.#options.crossAppAccess !== undefined) return this.#jwtBearerGrant(this.#options.crossAppAccess, scope);
    if (this.#options.clientCredentials === undefined) return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    // The SDK passes the configured scopes; without them, the server's advertised ones (as for a login).
    const chosen = scope || this.#record?.discovery?.resourceMetadata?.scopes_supported?.join(" ");
    if (chosen) params.set("scope", chosen);
    return params;
  }

  /** Token exchange at the identity provider (ID token → ID-JAG), then the JWT bearer grant's parameters. */
  async #jwtBearerGrant(options: CrossAppAccessOptions, scope: string | undefined): Promise<URLSearchParams> {
    const discovery = this.#record?.discovery;
    const assertion = await exchangeIdTokenForAssertion(
      options,
      {
        audience: discovery?.authorizationServerMetadata?.issuer ?? this.#options.authorizationServer ?? "",
        resource: discovery?.resourceMetadata?.resource ?? this.serverUrl,
        scope,
      },
      this.#options.fetch ?? fetch,
    );
    this.#assertion = assertion;
    return jwtBearerGrantParams(assertion, scope);
  }

  #isMachine(): boolean {
    return this.#options.clientCredentials !== undefined || this.#options.crossAppAccess !== undefined;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const record = await this.credentials();
    if (scope === "verifier") {
      this.#verifier = undefined;
      return;
    }
    if ((scope === "all" || scope === "tokens") && record.tokens !== undefined) this.#tokensRejected = true;
    const dropped = new Set<string>();
    if (scope === "all" || scope === "tokens") dropped.add("tokens").add("tokensReceivedAt");
    if (scope === "all" || scope === "client") dropped.add("clientInformation");
    if (scope === "all" || scope === "discovery") dropped.add("discovery");
    const next = Object.fromEntries(
      Object.entries(record).filter(([key]) => !dropped.has(key)),
    ) as unknown as StoredCredentials;
    this.#record = undefined;
    this.#loaded = Promise.resolve(next);
    if (this.#interaction === undefined) await this.#store.write(next);
    this.#record = next;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    checkDiscoveredMetadata(state);
    let record = await this.credentials();
    if (
      record.authorizationServer !== undefined &&
      !sameAuthorizationServer(record.authorizationServer, state.authorizationServerUrl)
    ) {
      // The server now names another authorization server: its own login (or none) applies; the
      // one stored for the old server stays where it is, and is never presented to the new one.
      record = (await this.#store.read(this.serverUrl, state.authorizationServerUrl)) ?? { resource: this.serverUrl };
      this.#record = record;
      this.#loaded = Promise.resolve(record);
    }
    // A connection that was never logged in stops here, before registering a client it cannot use.
    if (
      this.#interaction === undefined &&
      this.#options.interactive === undefined &&
      !this.#isMachine() &&
      record.tokens === undefined
    ) {
      throw this.#needsLogin();
    }
    this.#discoveredNow = true;
    await this.#update({ discovery: state, authorizationServer: state.authorizationServerUrl });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    // The SDK asks for this first on a 401, before any request of its own.
    if (this.#options.onlyWithStoredLogin === true && this.#interaction === undefined) {
      if (this.#unreadableStore !== undefined) throw this.#unreadableStore;
      if ((await this.credentials()).tokens === undefined) throw this.#needsLogin();
    }
    // A login discovers afresh (the server may have moved to another authorization server).
    const stored =
      this.#interaction !== undefined && !this.#discoveredNow ? undefined : (await this.credentials()).discovery;
    const configured = this.#options.resourceMetadataUrl;
    // No authorization server yet ("" is falsy to the SDK): it discovers, starting at the configured metadata URL.
    return (
      stored ?? (configured === undefined ? undefined : { authorizationServerUrl: "", resourceMetadataUrl: configured })
    );
  }

  /** The discovery this provider saw last (the login's `iss` check compares against its issuer). */
  lastDiscovery(): OAuthDiscoveryState | undefined {
    return this.#record?.discovery;
  }

  /** Every secret this provider holds, for redacting error text. */
  secretValues(): string[] {
    const record = this.#record;
    const client = record?.clientInformation as { client_secret?: string } | undefined;
    return [
      record?.tokens?.access_token,
      record?.tokens?.refresh_token,
      client?.client_secret,
      this.#options.client?.clientSecret,
      this.#options.clientCredentials?.clientSecret,
      this.#options.crossAppAccess?.clientSecret,
      this.#assertion,
      typeof this.#options.crossAppAccess?.idToken === "string" ? this.#options.crossAppAccess.idToken : undefined,
      this.#verifier,
    ].filter((value): value is string => typeof value === "string");
  }

  /** A login of its own (loopback listener, browser, checks: all login()'s), then the stored result. */
  async #loginInteractively(requiredScope: string | undefined): Promise<void> {
    const { interactive, ...options } = this.#options;
    // Loaded lazily: the loopback listener and browser are for interactive logins only.
    const { loginWith } = await import("./login-flow.js");
    const granted = (await this.credentials()).tokens?.scope;
    const scope = unionOfScopes(granted, requiredScope);
    const loginOptions = {
      ...options,
      store: this.#store,
      ...(scope === undefined ? {} : { scope }),
      ...(interactive?.showAuthorizationUrl === undefined
        ? {}
        : { showAuthorizationUrl: interactive.showAuthorizationUrl }),
      ...(interactive?.timeoutMs === undefined ? {} : { timeoutMs: interactive.timeoutMs }),
    };
    // A provider of its own for the login (as login() builds one), so this one's state stays untouched until it succeeds.
    await loginWith(new NodeOAuthClientProvider(this.serverUrl, loginOptions), loginOptions);
    // The login wrote the store; this provider reads it afresh.
    this.#record = undefined;
    this.#loaded = undefined;
    this.#tokensRejected = false;
    this.#stepUpScope = undefined;
    this.#freshLogin = true;
  }

  #needsScope(scope: string): MCPAuthError {
    const hint = this.#options.loginHint ?? "call login() from @mcp-tool-adapter/oauth for this server";
    return new MCPAuthError(
      "AUTH_REQUIRED",
      `${this.serverUrl} needs the scopes "${scope}", more than the stored login grants. To log in with them, ${hint} asking for scope "${scope}".`,
    );
  }

  #needsLogin(): MCPAuthError {
    const hint = this.#options.loginHint ?? "call login() from @mcp-tool-adapter/oauth for this server";
    if (this.#tokensRejected || (this.#interaction === undefined && this.#record?.tokens !== undefined)) {
      return new MCPAuthError(
        "AUTH_FAILED",
        `The stored login for ${this.serverUrl} was rejected and could not be refreshed (revoked or expired). To log in again, ${hint}.`,
      );
    }
    if (this.#options.onlyWithStoredLogin === true) {
      // Its config did not say OAuth: the 401 may as well mean a missing API key.
      return new MCPAuthError(
        "AUTH_REQUIRED",
        `${this.serverUrl} answered 401 Unauthorized and no login is stored for it. If it uses OAuth, ${hint}; ` +
          "if it takes an API key or token, set it in the server's config (headers.Authorization).",
      );
    }
    return new MCPAuthError("AUTH_REQUIRED", `${this.serverUrl} needs a login. To log in, ${hint}.`);
  }
}

function unionOfScopes(...lists: (string | undefined)[]): string | undefined {
  const scopes = new Set(lists.flatMap((list) => list?.split(" ").filter(Boolean) ?? []));
  return scopes.size === 0 ? undefined : [...scopes].join(" ");
}

function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (
      url.protocol === "http:" &&
      (url.hostname === "127.0.0.1" || url.hostname === "[::1]" || url.hostname === "localhost")
    );
  } catch {
    return false;
  }
}
