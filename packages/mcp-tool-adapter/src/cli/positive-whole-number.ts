/**
 * The value of a milliseconds flag (`--timeout`, `--connect-timeout`): a positive whole number,
 * else undefined. Commander's argParser and the bin's fast path both apply this one rule.
 */
export function positiveWholeNumber(text: string): number | undefined {
  const parsed = Number(text);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}
