import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { GATEWAY_DIR } from "./fixtures.js";

/**
 * How long our adapter may take to connect to `mcp-tool-adapter serve` over stdio: the process
 * runs the sources through tsx and connects its upstream servers before it answers `initialize`,
 * which on a loaded 2-core CI machine took more than the adapter's default 30 s.
 */
export const SERVE_CONNECT_TIMEOUT_MS = 90_000;

/**
 * The two ways the 2026-07-28 tests reach a gateway, each for the v2 client and for our adapter:
 * its HTTP endpoint (`httpUrl`) and `mcp-tool-adapter serve` over stdio (`serveArgs`: node's
 * arguments). Functions, as the URL and the config file exist only once the file's hooks ran.
 */
export function gatewayEndpoints(httpUrl: () => string, serveArgs: () => string[]) {
  return {
    v2Transports: [
      { label: "HTTP", make: () => new StreamableHTTPClientTransport(new URL(httpUrl())) },
      {
        label: "stdio (serve)",
        make: () =>
          new StdioClientTransport({
            command: process.execPath,
            args: serveArgs(),
            cwd: GATEWAY_DIR,
            stderr: "ignore",
          }),
      },
    ],
    adapterConfigs: [
      { label: "HTTP", config: () => ({ transport: "streamable-http" as const, url: httpUrl() }) },
      {
        label: "stdio (serve)",
        config: () => ({ transport: "stdio" as const, command: process.execPath, args: serveArgs(), cwd: GATEWAY_DIR }),
      },
    ],
  };
}
