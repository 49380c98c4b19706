import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "mcp-tool-adapter";
let packageRoot: string | undefined;

/**
 * The path of a file shipped in this package (package.json, config/…). Found from the package's
 * root, not from this module's own place: the sources sit in src/cli/, the published build in
 * one of dist/'s bundled chunks, and the depth of either can change with the build.
 */
export function packageFilePath(relativePath: string): string {
  packageRoot ??= findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  return join(packageRoot, relativePath);
}

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME
    ) {
      return dir;
    }
    if (dirname(dir) === dir) {
      throw new Error(
        `${PACKAGE_NAME}: no package.json of ${PACKAGE_NAME} above ${start}; the installed package is incomplete`,
      );
    }
  }
}
