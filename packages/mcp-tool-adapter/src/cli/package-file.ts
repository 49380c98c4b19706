import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "mcp-tool-adapter";

interface PackageManifest {
  readonly name: string;
  readonly version: string;
}

let found: { readonly root: string; readonly manifest: PackageManifest } | undefined;

/**
 * This package's root and its package.json, found from the package's root, not from this
 * module's own place: the sources sit in src/cli/, the published build in one of dist/'s bundled
 * chunks, and the depth of either can change with the build. Read once, on first use.
 */
function packageRoot(): { readonly root: string; readonly manifest: PackageManifest } {
  found ??= findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  return found;
}

/** The path of a file shipped in this package (package.json, config/…). */
export function packageFilePath(relativePath: string): string {
  return join(packageRoot().root, relativePath);
}

/** This package's own package.json (the one the root search read). */
export function packageManifest(): PackageManifest {
  return packageRoot().manifest;
}

function findPackageRoot(start: string): { root: string; manifest: PackageManifest } {
  for (let dir = start; ; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, "utf8")) as Partial<PackageManifest>;
      if (manifest.name === PACKAGE_NAME) return { root: dir, manifest: manifest as PackageManifest };
    }
    if (dirname(dir) === dir) {
      throw new Error(
        `${PACKAGE_NAME}: no package.json of ${PACKAGE_NAME} above ${start}; the installed package is incomplete`,
      );
    }
  }
}
