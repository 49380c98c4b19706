export { MCPAuthError, type MCPAuthErrorCode } from "./errors.js";
export {
  NodeOAuthClientProvider,
  type ClientCredentialsOptions,
  type InteractiveOptions,
  type LoginInteraction,
  type NodeOAuthProviderOptions,
  type PreRegisteredClient,
} from "./provider.js";
export { login, type LoginOptions, type LoginResult } from "./login.js";
export { logout } from "./logout.js";
export { createMemoryStore, tokensExpireAt, type CredentialStore, type StoredCredentials } from "./store.js";
export {
  createFileStore,
  credentialsFileName,
  defaultCredentialsDirectory,
  type FileStoreOptions,
} from "./file-store.js";
export { openInBrowser, type OpenInBrowserOptions } from "./open-browser.js";
export type { Logger } from "@mcp-tool-adapter/core";
