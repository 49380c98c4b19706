import { InvalidArgumentError } from "commander";
import { positiveWholeNumber } from "./positive-whole-number.js";

/**
 * Commander's argParsers for the CLI's numeric flags: a value that breaks the rule is a usage
 * error naming it (exit 2), never a NaN passed on (a NaN deadline fires at once, a NaN port fails
 * late). Apart from positive-whole-number.ts, whose rule the bin's fast path applies without
 * loading commander.
 */

/** A milliseconds flag (`--timeout`, `--connect-timeout`, ...): a positive whole number. */
export function parseMilliseconds(value: string): number {
  const parsed = positiveWholeNumber(value);
  if (parsed === undefined)
    throw new InvalidArgumentError(`expected a positive whole number of milliseconds, got "${value}".`);
  return parsed;
}

/** A count that must be at least one (`--upstream-per-client`). */
export function parsePositiveCount(value: string): number {
  const parsed = positiveWholeNumber(value);
  if (parsed === undefined) throw new InvalidArgumentError(`expected a positive whole number, got "${value}".`);
  return parsed;
}

/** A whole number from 0 to `max` (`--port`: 0 or absent is a free port; `--max-calls-awaiting-input`). */
export function wholeNumberUpTo(max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (value.trim() === "" || !Number.isInteger(parsed) || parsed < 0 || parsed > max)
      throw new InvalidArgumentError(`expected a whole number from 0 to ${max}, got "${value}".`);
    return parsed;
  };
}
