/**
 * What an OAuth client provider adds so an HTTP transport can carry a step-up (a server answering
 * `403 insufficient_scope` for more scopes) through: the SDK alone would refresh the same scopes
 * and give up. `@mcp-tool-adapter/oauth`'s `NodeOAuthClientProvider` implements it;
 * `@mcp-tool-adapter/transport-http` calls it on any provider that passes {@link isStepUpAuthProvider}.
 * Any other `OAuthClientProvider` works as the SDK alone would.
 */
export interface StepUpAuthProvider {
  /**
   * The server answered `403` with `WWW-Authenticate: Bearer error="insufficient_scope"`, naming
   * `scope` (undefined when it named none). Called before the SDK reacts to the response, so the
   * provider can make its next authorization ask for these scopes (or fail saying which it lacks).
   */
  noteInsufficientScope(scope: string | undefined): Promise<void>;
  /**
   * True once after the provider ran a login with a human (a step-up or a first login during a
   * connection) and stored new tokens: the request that needed it may then be sent again, once.
   */
  takeFreshLogin(): boolean;
}

/** True when `provider` implements {@link StepUpAuthProvider} (both methods). */
export function isStepUpAuthProvider(provider: unknown): provider is StepUpAuthProvider {
  if (typeof provider !== "object" || provider === null) return false;
  const candidate = provider as Partial<Record<keyof StepUpAuthProvider, unknown>>;
  return typeof candidate.noteInsufficientScope === "function" && typeof candidate.takeFreshLogin === "function";
}
