import { fileURLToPath } from "node:url";
import type { StdioLaunchConfig } from "./real-servers.js";

const ELICITING_SERVER_PATH = fileURLToPath(new URL("../servers/eliciting-server.mjs", import.meta.url));

/**
 * The eliciting server (servers/eliciting-server.mjs): tool `ask` elicits { name, age? } and returns
 * the answer as JSON text; `ask-then-wait` elicits a name, then works for up to a minute unless
 * cancelled, appending what became of the call to `eventsFile` when given; `look-up` (annotated
 * read-only) and `ask-then-write` (annotated as a write) ask for a name and record every run there
 * ("<tool> ran <pid>", then "<tool> answered <name> <pid>"); `look-up-slowly` (read-only) and
 * `write-slowly` (a write) ask too, then send progress and hold their result while the file their
 * `holdWhile` argument names exists ("<tool> holds <pid>" once the progress went out).
 */
export function elicitingStdioServer(options: { eventsFile?: string } = {}): StdioLaunchConfig {
  return {
    command: process.execPath,
    args: [ELICITING_SERVER_PATH],
    ...(options.eventsFile === undefined ? {} : { env: { ELICITING_EVENTS: options.eventsFile } }),
  };
}
