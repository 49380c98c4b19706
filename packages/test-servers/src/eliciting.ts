import { readFile } from "node:fs/promises";
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

/** The lines of the eliciting server's events file (its `eventsFile`) as they stand now. */
export async function elicitingEvents(eventsFile: string): Promise<string[]> {
  return (await readFile(eventsFile, "utf8")).split("\n");
}

/**
 * Waits until the events file has `count` lines starting with `prefix`, and returns those lines:
 * what the server did is written there by the server's own processes, so a test waits for it rather
 * than for a time. The test's own timeout ends a wait for something that never happens.
 */
export async function elicitingEventsUntil(eventsFile: string, count: number, prefix: string): Promise<string[]> {
  for (;;) {
    const found = (await elicitingEvents(eventsFile)).filter((line) => line.startsWith(prefix));
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
