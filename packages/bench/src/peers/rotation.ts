/**
 * The order the sides run in during round `round`: the list rotated left by `round` places, so
 * over as many rounds as there are sides each side runs once in every position (first, when the
 * machine may still be settling from the previous round, and last).
 */
export function rotatedOrder<T>(sides: readonly T[], round: number): T[] {
  if (sides.length === 0) return [];
  const shift = ((round % sides.length) + sides.length) % sides.length;
  return [...sides.slice(shift), ...sides.slice(0, shift)];
}
