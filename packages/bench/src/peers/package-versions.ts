import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const NODE_MODULES = fileURLToPath(new URL("../../node_modules/", import.meta.url));

/** The installed version of each package, as the bench's node_modules resolves it ("?" if unreadable). */
export async function packageVersions(names: readonly string[]): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const name of new Set(names)) {
    try {
      const manifest = JSON.parse(await readFile(`${NODE_MODULES}${name}/package.json`, "utf8")) as {
        version?: string;
      };
      versions[name] = manifest.version ?? "?";
    } catch {
      versions[name] = "?";
    }
  }
  return versions;
}
