import { fileURLToPath } from "node:url";
import type { StdioLaunchConfig } from "./real-servers.js";

const ELICITING_SERVER_PATH = fileURLToPath(new URL("../servers/eliciting-server.mjs", import.meta.url));

/** The eliciting server (servers/eliciting-server.mjs): tool `ask` elicits { name, age? } and returns the answer as JSON text. */
export function elicitingStdioServer(): StdioLaunchConfig {
  return { command: process.execPath, args: [ELICITING_SERVER_PATH] };
}
