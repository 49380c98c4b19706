#!/usr/bin/env node
// `pnpm changeset ...`: the changesets CLI, except `version`, which would release
// mcp-tool-adapter as 1.0.0 (changesets has no pre-1.0 rule; see scripts/release-plan.mjs).
// `pnpm version-packages` is the same step with this repository's rules.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
if (args[0] === "version") {
  console.error(
    "Run `pnpm version-packages` instead of `changeset version`: it applies the pre-1.0 rules (a breaking change before 1.0 is a minor, a first release is 0.1.0) that changesets does not know. See docs/releasing.md.",
  );
  process.exit(1);
}
const run = spawnSync("changeset", args, { stdio: "inherit", shell: false });
if (run.error !== undefined) {
  console.error(`Could not run changeset: ${run.error.message}. Run \`pnpm install\` first.`);
  process.exit(1);
}
process.exit(run.status ?? 1);
