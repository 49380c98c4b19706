export { MCPAuthError, type MCPAuthErrorCode } from "./errors.js";
export { NodeOAuthClientProvider } from "./provider.js";
export type {
  ClientCredentialsOptions,
  CrossAppAccessOptions,
  InteractiveOptions,
  NodeOAuthProviderOptions,
  PreRegisteredClient,
} from "./provider-options.js";
export type { LoginInteraction } from "./login-types.js";
export { login, type LoginOptions, type LoginResult } from "./login.js";
export { logout, type LogoutOptions } from "./logout.js";
export {
  canonicalCredentialUrl,
  createMemoryStore,
  sameAuthorizationServer,
  tokensExpireAt,
  type CredentialStore,
  type StoredCredentials,
} from "./store.js";
export {
  createFileStore,
  credentialsFileName,
  defaultCredentialsDirectory,
  type CredentialKey,
  type FileStoreOptions,
} from "./file-store.js";
export { openInBrowser, type OpenInBrowserOptions } from "./open-browser.js";
export type { Logger } from "@mcp-tool-adapter/core";
