#!/usr/bin/env node
// The publish step of `pnpm release`, without publishing: `pnpm publish -r --dry-run` (after a
// build) must pack every public package of the workspace, built (its `main` inside), and nothing
// else. `--force` lists the packages whose version is already on the registry too (a real publish
// skips them), so the check means the same before and after a release. Prints one line per package.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Name -> manifest of every package under packages/ that is not private. */
function publicPackages() {
  const packages = new Map();
  for (const dir of readdirSync(join(root, "packages"))) {
    const manifestPath = join(root, "packages", dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (manifest.private !== true) packages.set(manifest.name, manifest);
  }
  return packages;
}

const run = spawnSync("pnpm", ["publish", "-r", "--dry-run", "--no-git-checks", "--force", "--json"], {
  cwd: root,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
if (run.status !== 0) {
  console.error(`pnpm publish -r --dry-run failed (exit ${run.status}):\n${run.stderr}${run.stdout}`);
  process.exit(1);
}

let packed;
try {
  packed = JSON.parse(run.stdout);
} catch {
  console.error(`pnpm publish -r --dry-run --json printed no JSON list:\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}
const expected = publicPackages();
const problems = [];
for (const { name, version, files, size } of packed) {
  const manifest = expected.get(name);
  if (manifest === undefined) problems.push(`${name}: published, but it is not a public package under packages/`);
  else if (manifest.version !== version) {
    problems.push(`${name}: published as ${version}, but its package.json says ${manifest.version}`);
  } else if (!files.some((file) => file.path === manifest.main.replace(/^\.\//, ""))) {
    problems.push(`${name}: the tarball has no ${manifest.main} (its main): run \`pnpm build\` first`);
  }
  console.log(`  ${name}@${version}: ${files.length} files, ${Math.round(size / 1024)} KiB packed`);
}
const packedNames = new Set(packed.map((entry) => entry.name));
for (const name of expected.keys()) {
  if (!packedNames.has(name)) problems.push(`${name}: a public package that pnpm publish -r left out`);
}
if (problems.length > 0) {
  console.error(`publish dry run: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`publish dry run: all ${expected.size} public packages pack for publishing`);
