import { InvalidArgumentError } from "commander";
import { positiveWholeNumber } from "./positive-whole-number.js";

/**
 * Commander's argParsers for the CLI's numeric flags: a value that breaks the rule is a usage
 * error naming it (exit 2) while the command line is read, never a NaN passed on (where a deadline
 * fell back to its default without a word). Apart from positive-whole-number.ts, whose rule the
 * bin's fast path applies without loading commander.
 */

/** positiveWholeNumber as an argParser; `unit` names what the number counts in the message. */
function positiveWhole(unit: string): (value: string) => number {
  return (value) => {
    const parsed = positiveWholeNumber(value);
    if (parsed === undefined)
      throw new InvalidArgumentError(`expected a positive whole number${unit}, got "${value}".`);
    return parsed;
  };
}

/** A milliseconds flag (`--timeout`, `--connect-timeout`, ...): a positive whole number. */
export const parseMilliseconds = positiveWhole(" of milliseconds");

/** A count that must be at least one (`--upstream-per-client`). */
export const parsePositiveCount = positiveWhole("");

/** A whole number from 0 to `max` (`--port`: 0 or absent is a free port; `--max-calls-awaiting-input`). */
export function wholeNumberUpTo(max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (value.trim() === "" || !Number.isInteger(parsed) || parsed < 0 || parsed > max)
      throw new InvalidArgumentError(`expected a whole number from 0 to ${max}, got "${value}".`);
    return parsed;
  };
}
