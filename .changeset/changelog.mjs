// The changelog lines of `changeset version` (and `pnpm version-packages`), as a user reads them:
// each change once, without the commit hash of the changeset (an internal detail of this
// repository), and one line naming the updated sibling packages instead of one "Updated
// dependencies [hash]" line per changeset behind them (a hundred on the umbrella's first release).

/** One changeset's summary: its first line as the entry, the rest indented under it. */
async function getReleaseLine(changeset) {
  const [first = "", ...rest] = changeset.summary
    .trim()
    .split("\n")
    .map((line) => line.trimEnd());
  return [`- ${first}`, ...rest.map((line) => (line === "" ? "" : `  ${line}`))].join("\n");
}

/** The sibling packages this release moves to, in one entry. */
async function getDependencyReleaseLine(_changesets, dependenciesUpdated) {
  if (dependenciesUpdated.length === 0) return "";
  const names = dependenciesUpdated
    .map((dependency) => `\`${dependency.name}@${dependency.newVersion}\``)
    .sort()
    .join(", ");
  return `- Uses ${names}.`;
}

export default { getReleaseLine, getDependencyReleaseLine };
