import type { MCPToolUiCsp } from "@mcp-tool-adapter/adapter";

/**
 * The Content-Security-Policy an app runs under: what its server declared (`_meta.ui.csp`) and
 * nothing more. The sandbox proxy page is served with it as an HTTP header (which the app's
 * HTML cannot remove or weaken), and the app's frame, written into the proxy page, inherits it.
 * Inline scripts and styles are allowed (apps are single-file bundles); every network
 * destination, nested frame and base URI is refused unless declared.
 */
export function buildAppCsp(csp: MCPToolUiCsp | undefined): string {
  const resources = sources(csp?.resourceDomains);
  const connect = sources(csp?.connectDomains);
  const frames = sources(csp?.frameDomains);
  const bases = sources(csp?.baseUriDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' blob: ${resources}`,
    `style-src 'unsafe-inline' blob: data: ${resources}`,
    `img-src data: blob: ${resources}`,
    `font-src data: blob: ${resources}`,
    `media-src data: blob: ${resources}`,
    `worker-src blob: ${resources}`,
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frames || "'none'"}`,
    `base-uri ${bases || "'none'"}`,
    "form-action 'none'",
    "object-src 'none'",
  ]
    .map((directive) => directive.trim())
    .join("; ");
}

/**
 * Only plain origins (`https://host[:port]`, `https://*.host`, `wss://...`) are taken: anything
 * with a quote, a semicolon, a comma or white space could add a keyword or a directive.
 */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i;

function sources(domains: readonly string[] | undefined): string {
  return (domains ?? []).filter((domain) => ORIGIN.test(domain)).join(" ");
}

/** The query parameter of the sandbox proxy URL that carries an app's declared CSP. */
export const SANDBOX_CSP_PARAM = "csp";

/** `csp` as the sandbox proxy URL's query value (JSON, URL-safe base64). */
export function encodeCspParam(csp: MCPToolUiCsp | undefined): string {
  const bytes = new TextEncoder().encode(JSON.stringify(csp ?? {}));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The CSP a sandbox proxy URL carries; `undefined` (the strictest policy) for a missing or unreadable value. */
export function decodeCspParam(value: string | null): MCPToolUiCsp | undefined {
  if (value === null || value === "") return undefined;
  try {
    const base64 = value.replaceAll("-", "+").replaceAll("_", "/");
    const text = new TextDecoder().decode(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
