/** Enough significant digits to compare, never a wall of decimals. */
export function formatNumber(value: number | undefined): string {
  if (value === undefined) return "";
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 100) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  if (magnitude === 0) return "0";
  return value.toFixed(3);
}
