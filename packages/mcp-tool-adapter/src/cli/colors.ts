import { createRequire } from "node:module";
import type picocolors from "picocolors";

type Colors = ReturnType<typeof picocolors.createColors>;

/** The formatters the CLI's output uses. */
export type CliColors = Pick<Colors, "bold" | "cyan" | "dim" | "green" | "red" | "yellow">;

const plain = (input: unknown): string => String(input);

/** What picocolors prints with colour off: the text as it is. */
const PLAIN_COLORS: CliColors = { bold: plain, cyan: plain, dim: plain, green: plain, red: plain, yellow: plain };

/**
 * picocolors' formatters when colour is on; without colour (output to a pipe or a file, NO_COLOR)
 * picocolors is not loaded: importing it loads node:tty (it asks whether stdout is a terminal),
 * about 6 ms of CPU on Node 24 that `call` spent while its server started.
 */
export function cliColors(enabled: boolean): CliColors {
  if (!enabled) return PLAIN_COLORS;
  const colors = createRequire(import.meta.url)("picocolors") as typeof picocolors;
  return colors.createColors(true);
}
