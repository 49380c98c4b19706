/** Visible width of a string once ANSI colour codes are removed. */
export function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex -- matching ANSI escapes is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "").length;
}

/** Cuts `text` to `width` characters, ending in "…" when cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (text.length <= width) return text;
  return width === 1 ? "…" : `${text.slice(0, width - 1)}…`;
}

/** First line of a description, whitespace collapsed: table cells are one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Left-aligned columns separated by two spaces. The last column is not padded; when `maxWidth`
 * is given it is cut so each row fits (the first columns are never cut).
 */
export function formatTable(rows: readonly (readonly string[])[], maxWidth?: number): string[] {
  const columnCount = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columnCount }, (_, column) =>
    Math.max(0, ...rows.map((row) => visibleLength(row[column] ?? ""))),
  );
  return rows.map((row) => {
    let line = "";
    row.forEach((cell, column) => {
      const last = column === row.length - 1;
      if (!last) {
        line += cell + " ".repeat((widths[column] ?? 0) - visibleLength(cell) + 2);
        return;
      }
      line += maxWidth === undefined ? cell : truncate(cell, Math.max(10, maxWidth - visibleLength(line)));
    });
    return line.trimEnd();
  });
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return "-";
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
