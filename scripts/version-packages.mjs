#!/usr/bin/env node
// `pnpm version-packages`: `changeset version` with the pre-1.0 rules of scripts/release-plan.mjs.
// Prints each package's old and new version (and every version the rules changed, with why), then
// writes the versions, the internal dependency ranges and the CHANGELOG.md files, and deletes the
// consumed changesets. `--dry-run` prints the same plan and writes nothing (CI runs it).
// `--expect-versioned` (the first step of `pnpm release`) writes nothing and fails unless the
// versioning is done: no pending changesets, and no public package still at 0.0.0.
// Exits 1 without writing when the plan has a problem.
import { applyPlan, readReleasePlan } from "./release-plan.mjs";

const OPTIONS = ["--dry-run", "--expect-versioned"];
const unknown = process.argv.slice(2).filter((arg) => !OPTIONS.includes(arg));
if (unknown.length > 0) {
  console.error(`version-packages: unknown argument ${unknown.join(" ")}; the options are ${OPTIONS.join(", ")}.`);
  process.exit(2);
}
const dryRun = process.argv.includes("--dry-run");

const releasePlan = await readReleasePlan();
const releases = releasePlan.plan.releases.filter((release) => release.type !== "none");
if (process.argv.includes("--expect-versioned")) {
  const unreleased = releasePlan.packages.packages
    .filter((pkg) => pkg.packageJson.private !== true && pkg.packageJson.version === "0.0.0")
    .map((pkg) => pkg.packageJson.name);
  if (releasePlan.plan.changesets.length > 0 || unreleased.length > 0) {
    console.error(
      `version-packages: not versioned yet (${releasePlan.plan.changesets.length} pending changesets${unreleased.length > 0 ? `; at 0.0.0: ${unreleased.join(", ")}` : ""}). Run \`pnpm version-packages\`, review and commit, then release.`,
    );
    process.exit(1);
  }
  console.log("version-packages: versioned, no pending changesets.");
  process.exit(0);
}
if (releases.length === 0) {
  console.log("version-packages: no pending changesets, nothing to release.");
  process.exit(0);
}

const width = Math.max(...releases.map((release) => release.name.length));
console.log(`Release plan (${releasePlan.plan.changesets.length} changesets):`);
for (const release of [...releases].sort((a, b) => a.name.localeCompare(b.name))) {
  console.log(`  ${release.name.padEnd(width)}  ${release.oldVersion} -> ${release.newVersion} (${release.type})`);
}
for (const { name, from, to, reason } of releasePlan.adjusted) {
  console.log(`  pre-1.0 rule: ${name} ${to}, not ${from}: ${reason}`);
}
if (releasePlan.problems.length > 0) {
  console.error(
    `version-packages: the plan cannot be released:\n${releasePlan.problems.map((p) => `  ${p}`).join("\n")}`,
  );
  process.exit(1);
}
if (dryRun) {
  console.log("version-packages: --dry-run, nothing written.");
} else {
  await applyPlan(releasePlan);
  console.log("version-packages: versions, dependency ranges and CHANGELOG.md files written; review and commit them.");
}
