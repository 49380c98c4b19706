/** The two things every comparison measures: our adapter and the MCP SDK's own Client. */
export type Side = "adapter" | "raw";

export const SIDES: readonly Side[] = ["adapter", "raw"];

/**
 * Runs `rounds` rounds of each side alternately (adapter, raw, adapter, raw ...), so slow drift
 * of the machine (other work on the shared cores, thermal limits, GC state) lands on both
 * sides alike instead of on whichever side happened to run second.
 */
export async function alternate(rounds: number, run: (side: Side, round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    for (const side of SIDES) await run(side, round);
  }
}

/** A per-side bag of samples, filled by `alternate`. */
export function perSide<T>(make: () => T): Record<Side, T> {
  return { adapter: make(), raw: make() };
}
