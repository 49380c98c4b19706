// @mcp-tool-adapter/apps/server: the Node side of an MCP Apps host. The apps channel over a server
// set, and the sandbox proxy page, each as a Fetch-style handler (Next.js route handlers, Hono)
// and as a node:http / Express handler.
import { createAppsFetchHandler, type AppsHandlerOptions } from "./apps-handler.js";
import { toNodeHandler, type AppsNodeHandler } from "./node-handler.js";
import { createSandboxProxyFetchHandler, type SandboxProxyOptions } from "./sandbox-handler.js";

export {
  createAppsFetchHandler,
  type AppsFetchHandler,
  type AppsHandlerOptions,
  type AppsServerSource,
} from "./apps-handler.js";
export { createSandboxProxyFetchHandler, type SandboxProxyOptions } from "./sandbox-handler.js";
export { toNodeHandler, type AppsNodeHandler } from "./node-handler.js";
export { buildAppCsp } from "../app-csp.js";

/** The apps channel as a `node:http` (or Express) handler; see {@link createAppsFetchHandler}. */
export function createAppsHandler(options: AppsHandlerOptions): AppsNodeHandler {
  return toNodeHandler(createAppsFetchHandler(options));
}

/** The sandbox proxy page as a `node:http` (or Express) handler; serve it from an origin of its own. */
export function createSandboxProxyHandler(options: SandboxProxyOptions): AppsNodeHandler {
  return toNodeHandler(createSandboxProxyFetchHandler(options));
}
