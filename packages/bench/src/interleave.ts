/** The two things every comparison measures: our adapter and the MCP SDK's own Client. */
export type Side = "adapter" | "raw";

export const SIDES: readonly Side[] = ["adapter", "raw"];

/**
 * Runs `rounds` rounds of each side, alternating which side goes first (adapter, raw, raw,
 * adapter, adapter, raw ...), so slow drift of the machine (other work on the shared cores,
 * thermal limits, GC state) lands on both sides alike, and so does whatever going first or
 * second costs (a cold cache, the other side's garbage).
 */
export async function alternate(rounds: number, run: (side: Side, round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    for (const side of sidesInRound(round)) await run(side, round);
  }
}

/** The order of the two sides in one round: adapter first in even rounds, raw first in odd ones. */
export function sidesInRound(round: number): readonly Side[] {
  return round % 2 === 0 ? SIDES : REVERSED_SIDES;
}

const REVERSED_SIDES: readonly Side[] = [...SIDES].reverse();

/** A per-side bag of samples, filled by `alternate`. */
export function perSide<T>(make: () => T): Record<Side, T> {
  return { adapter: make(), raw: make() };
}
