#!/usr/bin/env node
// The `mcp-tool-adapter` command. A published install runs the compiled CLI in dist/. In a
// source checkout of the monorepo (recognised by tsconfig.json, which is never published) it
// runs the TypeScript sources through tsx with the workspace's source condition, so it works
// right after `pnpm install` and never mixes a stale or partial dist/ with the sources. That
// needs a child process: export conditions and loaders can only be set when Node starts.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const inCheckout = existsSync(new URL("../tsconfig.json", import.meta.url));

function resolveTsx() {
  try {
    // Resolved from here, not from the caller's working directory.
    return import.meta.resolve("tsx");
  } catch {
    return undefined;
  }
}

const tsx = inCheckout ? resolveTsx() : undefined;

if (tsx !== undefined) {
  const source = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--import", tsx, "--conditions=@mcp-tool-adapter/source", source, ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("error", (error) => {
    process.stderr.write(`mcp-tool-adapter: cannot run the sources: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128);
  });
} else if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  process.stderr.write(
    'mcp-tool-adapter: dist/ is missing; run "pnpm build" in packages/mcp-tool-adapter (or "pnpm install" for tsx).\n',
  );
  process.exitCode = 1;
}
