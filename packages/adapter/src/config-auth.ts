import { MCPConfigError } from "./errors.js";

/**
 * `auth` is the OAuth shape of a server set entry and a config file (`{ type: "oauth", ... }`).
 * This adapter has no OAuth code (it must load where there is none), so a config carrying `auth`
 * is refused here instead of being kept as an unused extra field: the connection would go out
 * without the login the config asks for.
 */
export function refuseConfigAuth(config: object): void {
  if (!("auth" in config) || config.auth === undefined) return;
  const name = "name" in config && typeof config.name === "string" ? config.name : "(unnamed)";
  const message =
    `"auth" is not used by MCPToolAdapter from @mcp-tool-adapter/adapter, which has no OAuth code: ` +
    `use MCPToolAdapter from the "mcp-tool-adapter" package, which turns "auth" into an OAuth provider with stored logins, ` +
    `or pass an OAuthClientProvider (e.g. NodeOAuthClientProvider from @mcp-tool-adapter/oauth) as the authProvider option or to your transport`;
  throw new MCPConfigError(`Invalid MCP server config "${name}": ${message}.`, [{ path: "/auth", message }]);
}
