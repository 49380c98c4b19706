import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGES_DIR = fileURLToPath(new URL("../../../", import.meta.url));

/** The newest modification time of any file under `dir`, in ms; 0 for an empty or missing dir. */
async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

interface Manifest {
  readonly name?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

/**
 * Why our published builds cannot be measured: the packages the peer worker loads (`roots` and
 * their workspace dependencies) whose `dist` is missing or older than their `src`, each with the
 * reason; empty when all are current.
 */
export async function staleBuilds(
  roots: readonly string[] = ["mcp-tool-adapter", "@mcp-tool-adapter/adapter"],
  packagesDir = PACKAGES_DIR,
): Promise<string[]> {
  const byName = new Map<string, { dir: string; manifest: Manifest }>();
  for (const entry of await readdir(packagesDir)) {
    const dir = join(packagesDir, entry);
    try {
      const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as Manifest;
      if (manifest.name !== undefined) byName.set(manifest.name, { dir, manifest });
    } catch {
      // Not a package.
    }
  }
  const seen = new Set<string>();
  const pending = [...roots];
  const problems: string[] = [];
  while (pending.length > 0) {
    const name = pending.pop()!;
    const found = byName.get(name);
    if (seen.has(name) || found === undefined) continue;
    seen.add(name);
    for (const [dependency, range] of Object.entries(found.manifest.dependencies ?? {})) {
      if (range.startsWith("workspace:")) pending.push(dependency);
    }
    const built = await newestMtime(join(found.dir, "dist"));
    const source = await newestMtime(join(found.dir, "src"));
    if (built === 0) problems.push(`${name}: no dist build`);
    else if (source > built) problems.push(`${name}: dist is older than src`);
  }
  return problems.sort();
}
