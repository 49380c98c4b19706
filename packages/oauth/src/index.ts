export { MCPAuthError, type MCPAuthErrorCode } from "./errors.js";
export {
  NodeOAuthClientProvider,
  type ClientCredentialsOptions,
  type CrossAppAccessOptions,
  type InteractiveOptions,
  type LoginInteraction,
  type NodeOAuthProviderOptions,
  type PreRegisteredClient,
} from "./provider.js";
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
