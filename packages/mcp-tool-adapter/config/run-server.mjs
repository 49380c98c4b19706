#!/usr/bin/env node
// Starts one MCP server package for config/default.json: `run-server.mjs <package>@<version> [args...]`.
// The servers are not dependencies of mcp-tool-adapter (a library user should not install them),
// so an installed copy is used when Node can find one, from the working directory or from this
// package (a development dependency in the repository, or one you added); otherwise
// `npx -y <package>@<version>` fetches the pinned version once into npm's cache.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const [spec, ...serverArgs] = process.argv.slice(2);
if (spec === undefined) {
  process.stderr.write("usage: run-server.mjs <package>@<version> [args...]\n");
  process.exit(2);
}
const versionAt = spec.lastIndexOf("@");
const packageName = versionAt > 0 ? spec.slice(0, versionAt) : spec;

function installedBin() {
  for (const base of [join(process.cwd(), "package.json"), import.meta.url]) {
    try {
      const manifestPath = createRequire(base).resolve(`${packageName}/package.json`);
      const { bin } = JSON.parse(readFileSync(manifestPath, "utf8"));
      const entry = typeof bin === "string" ? bin : Object.values(bin ?? {})[0];
      if (entry !== undefined) return join(dirname(manifestPath), entry);
    } catch {
      // not installed where this base can see it
    }
  }
  return undefined;
}

const bin = installedBin();
if (bin !== undefined) {
  // Run the server in this process, as if Node had started its bin script directly.
  process.argv = [process.argv[0], bin, ...serverArgs];
  await import(pathToFileURL(bin).href);
} else {
  const npx = spawn(process.platform === "win32" ? "npx.cmd" : "npx", ["-y", spec, ...serverArgs], {
    stdio: "inherit",
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => npx.kill(signal));
  npx.on("error", (error) => {
    process.stderr.write(
      `run-server: cannot start npx for ${spec}: ${error.message}. Install ${packageName} or put npx on PATH.\n`,
    );
    process.exitCode = 1;
  });
  npx.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128);
  });
}
