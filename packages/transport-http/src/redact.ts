// The secret rules live in @mcp-tool-adapter/core (the adapter redacts with the same ones).
export {
  addHeaderSecrets,
  addUrlSecrets,
  collectConfigSecrets,
  isSensitiveHeader,
  redactSecrets,
} from "@mcp-tool-adapter/core";

/** The URL as it may appear in messages: scheme, host and path; no userinfo, query or fragment. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search ? "?…" : ""}`;
}
