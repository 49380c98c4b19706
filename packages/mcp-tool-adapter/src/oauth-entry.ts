// OAuth login, credential stores and the Node OAuth provider, as `mcp-tool-adapter/oauth`: a sub-entry of its own so
// that importing the umbrella does not load it (issue 17: import time). Its types are here only, not at the root.
export {
  createFileStore,
  createMemoryStore,
  login,
  logout,
  MCPAuthError,
  NodeOAuthClientProvider,
  type CredentialStore,
  type InteractiveOptions,
  type LoginOptions,
  type LoginResult,
  type MCPAuthErrorCode,
  type NodeOAuthProviderOptions,
  type StoredCredentials,
} from "@mcp-tool-adapter/oauth";
