import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { StdioLaunchConfig } from "./real-servers.js";

/**
 * The published MCP Apps example servers (`@modelcontextprotocol/ext-apps`' examples), all
 * offline: their UI is one self-contained HTML file, and none fetches anything at run time.
 * - basic-vanillajs: `get-time` with a UI whose button calls `get-time` again, sends a message, opens a link
 * - budget-allocator: `get-budget-data` with a chart UI (the extension's legacy flat `ui/resourceUri` key)
 * - system-monitor: `get-system-info` with a UI, and `poll-system-stats`, a tool for the app alone
 */
export const APPS_SERVER_PACKAGES = {
  "basic-vanillajs": "@modelcontextprotocol/server-basic-vanillajs",
  "budget-allocator": "@modelcontextprotocol/server-budget-allocator",
  "system-monitor": "@modelcontextprotocol/server-system-monitor",
} as const;

export type AppsServerName = keyof typeof APPS_SERVER_PACKAGES;

const requireFromHere = createRequire(import.meta.url);

/** One of the MCP Apps example servers over stdio (`node <bin> --stdio`). */
export function appsStdioServer(name: AppsServerName): StdioLaunchConfig {
  return { command: process.execPath, args: [appsServerBin(APPS_SERVER_PACKAGES[name]), "--stdio"] };
}

/** The package's `bin` script. Its exports hide package.json, so it is found from the main entry upwards. */
function appsServerBin(packageName: string): string {
  let directory = dirname(requireFromHere.resolve(packageName));
  while (!existsSync(join(directory, "package.json"))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`cannot find the package.json of ${packageName}; is it installed?`);
    directory = parent;
  }
  const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
    bin?: Record<string, string>;
  };
  const bin = Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${packageName} declares no bin entry; cannot launch it`);
  return join(directory, bin);
}
