// The release plan of the pending changesets, with this repository's pre-1.0 rules on top of
// changesets' own (docs/releasing.md):
//
// - Before 1.0 a breaking change is a minor: 0.x.y goes to 0.(x+1).0, never to 1.0.0. Changesets
//   knows no such rule. It turns a changeset marked `major` into 1.0.0, and it marks `major` every
//   package with a sibling as a peer dependency when that sibling gets a minor (the umbrella and
//   its optional peer engine-2026), so the first release made `mcp-tool-adapter` 1.0.0.
// - A first release is 0.1.0: a package still at 0.0.0 goes to 0.1.0 even when its changesets
//   are only patches.
// - Changelog entries are in the order of the work (by the commit that added the changeset;
//   changesets reads them in file-name order): a package's first release begins with what it is,
//   and where two entries are about the same thing the later one is what the release does. A
//   first release says so above them.
// - A public package that is released depends only on siblings that are released with it or
//   already were (a version above 0.0.0): otherwise its users would install a version that was
//   never published.
//
// Changesets' own packages are loaded from the installed @changesets/cli (its dependencies, so the
// versions always match the CLI's).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const cliPackageJson = require.resolve("@changesets/cli/package.json");
const fromCli = createRequire(cliPackageJson);
const { getPackages } = fromCli("@manypkg/get-packages");
const { read: readConfig } = fromCli("@changesets/config");
const readChangesets = fromCli("@changesets/read").default;
const { readPreState } = fromCli("@changesets/pre");
const assembleReleasePlan = fromCli("@changesets/assemble-release-plan").default;
const applyReleasePlan = fromCli("@changesets/apply-release-plan").default;
const semver = fromCli("semver");

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** Where the CLI's own files are: `applyReleasePlan` resolves the changelog module from there as a fallback. */
export const changesetsCliDir = fileURLToPath(new URL(".", `file://${cliPackageJson}`));

const INTERNAL_DEPENDENCY_TYPES = ["dependencies", "peerDependencies", "optionalDependencies"];

/**
 * The release plan of `cwd`'s pending changesets with the pre-1.0 rules applied. Returns the plan
 * (for `applyReleasePlan`), the packages and config it was made with, `adjusted` (each release
 * the rules changed, with why) and `problems` (sentences; a plan with problems must not be applied).
 */
export async function readReleasePlan(cwd = repoRoot) {
  const packages = await getPackages(cwd);
  const config = await readConfig(cwd, packages);
  const [changesets, preState] = await Promise.all([readChangesets(cwd), readPreState(cwd)]);
  const plan = assembleReleasePlan(changesets, packages, config, preState);
  const added = changesetAddedTimes(cwd);
  plan.changesets.sort((a, b) => (added.get(a.id) ?? Infinity) - (added.get(b.id) ?? Infinity));
  const adjusted = [];

  for (const changeset of plan.changesets) {
    for (const release of changeset.releases) {
      const version = packages.packages.find((pkg) => pkg.packageJson.name === release.name)?.packageJson.version;
      if (release.type === "major" && version !== undefined && semver.major(version) === 0) {
        // The changelog files the entry under the bump the package gets: "Minor Changes".
        release.type = "minor";
      }
    }
  }
  for (const release of plan.releases) {
    if (release.type === "none") continue;
    const preOneZero = semver.major(release.oldVersion) === 0;
    let reason;
    if (preOneZero && release.type === "major") reason = "a breaking change before 1.0 is a minor";
    else if (release.oldVersion === "0.0.0" && release.type === "patch") reason = "a first release is 0.1.0";
    if (reason === undefined) continue;
    const from = release.newVersion;
    release.type = "minor";
    release.newVersion = semver.inc(release.oldVersion, "minor");
    adjusted.push({ name: release.name, from, to: release.newVersion, reason });
  }

  const released = new Map(plan.releases.filter((release) => release.type !== "none").map((r) => [r.name, r]));
  const byName = new Map(packages.packages.map((pkg) => [pkg.packageJson.name, pkg.packageJson]));
  /** Never-released siblings without a changeset -> the releases that depend on them. */
  const missing = new Map();
  for (const release of released.values()) {
    const manifest = byName.get(release.name);
    for (const type of INTERNAL_DEPENDENCY_TYPES) {
      for (const dependency of Object.keys(manifest?.[type] ?? {})) {
        const sibling = byName.get(dependency);
        if (sibling === undefined || released.has(dependency) || sibling.version !== "0.0.0") continue;
        missing.set(dependency, [...(missing.get(dependency) ?? []), `${release.name}@${release.newVersion}`]);
      }
    }
  }
  const problems = [...missing].map(
    ([dependency, dependents]) =>
      `${dependency} was never released and has no changeset, but ${dependents.join(", ")} need it: add a changeset for ${dependency}.`,
  );
  return { plan, packages, config, adjusted, problems };
}

/** When (Unix seconds) each changeset, by id, was committed; uncommitted ones are missing. */
function changesetAddedTimes(cwd) {
  const log = execFileSync("git", ["log", "--diff-filter=A", "--format=@%ct", "--name-only", "--", ".changeset/*.md"], {
    cwd,
    encoding: "utf8",
  });
  const added = new Map();
  let time = 0;
  for (const line of log.split("\n")) {
    if (line.startsWith("@")) time = Number(line.slice(1));
    else if (line.startsWith(".changeset/")) {
      const id = line.slice(".changeset/".length, -".md".length);
      // Newest first in the log: keep the latest addition of an id that was deleted and added again.
      if (!added.has(id)) added.set(id, time);
    }
  }
  return added;
}

export const FIRST_RELEASE_NOTE =
  "First release. The entries are in the order the work was done: where two are about the same thing, the later one is what this version does.";

/** Writes the plan: versions, internal dependency ranges, CHANGELOG.md files; deletes the changesets. */
export async function applyPlan({ plan, packages, config }) {
  const touched = await applyReleasePlan(plan, packages, config, undefined, changesetsCliDir);
  for (const release of plan.releases) {
    if (release.type === "none") continue;
    const dir = packages.packages.find((pkg) => pkg.packageJson.name === release.name)?.dir;
    if (dir !== undefined) writeVersionConstant(dir, release.newVersion);
  }
  for (const release of plan.releases) {
    if (release.type === "none" || release.oldVersion !== "0.0.0") continue;
    const dir = packages.packages.find((pkg) => pkg.packageJson.name === release.name)?.dir;
    if (dir === undefined) continue;
    const changelog = join(dir, "CHANGELOG.md");
    const heading = `## ${release.newVersion}\n`;
    const text = readFileSync(changelog, "utf8");
    writeFileSync(changelog, text.replace(heading, `${heading}\n${FIRST_RELEASE_NOTE}\n`));
  }
  return touched;
}

/**
 * A package that sends its own version (the adapter's default clientInfo) keeps it in
 * src/version.ts as one exported string constant; it is rewritten with package.json.
 */
function writeVersionConstant(dir, version) {
  const file = join(dir, "src", "version.ts");
  if (!existsSync(file)) return;
  const text = readFileSync(file, "utf8");
  const next = text.replace(/(export const \w+_VERSION = )"[^"]*";/, `$1${JSON.stringify(version)};`);
  if (next === text && !text.includes(JSON.stringify(version)))
    throw new Error(`release-plan: ${file} has no \`export const ..._VERSION = "...";\` line to write ${version} into`);
  writeFileSync(file, next);
}
