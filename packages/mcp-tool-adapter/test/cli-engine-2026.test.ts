import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadInstalledEngine2026 } from "../src/cli/engine-2026-loader.js";
import { runBin } from "./fixtures/run-bin.js";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";

// The CLI picks @mcp-tool-adapter/engine-2026 by itself when it is installed (in this workspace it
// is, beside the CLI) for entries that want it; without it, "auto" stays on 2025 and "2026-07-28"
// is a config error. One modern-only and one dual-era SDK v2 server (in this process) for the file.
let modern: V2HttpServer;
let dual: V2HttpServer;
let dir: string;
let config: string;

beforeAll(async () => {
  [modern, dual] = await Promise.all([startV2HttpServer({ modernOnly: true }), startV2HttpServer()]);
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-engine-2026-"));
  config = join(dir, "mcp.json");
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        modern: { type: "http", url: modern.url },
        pinned: { type: "http", url: modern.url, protocol: "2026-07-28" },
        dual: { type: "http", url: dual.url },
      },
    }),
  );
});
afterAll(async () => {
  await Promise.all([modern.close(), dual.close(), rm(dir, { recursive: true, force: true })]);
});

/** The real bin, in the test's temporary directory, with its own store of logins. */
function runBinHere(args: string[]): Promise<CapturedRun> {
  return runBin(args, {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_AUTH_DIR: join(dir, "auth") },
  });
}

describe("the CLI with @mcp-tool-adapter/engine-2026 installed", () => {
  it("check (the spawned bin) shows the 2026 era under auto and 2026-07-28, for the modern-only and the dual-era server", async () => {
    const result = await runBinHere(["check", "--config", config, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { servers: { name: string; protocolEra?: string }[] };
    expect(report.servers.map((server) => [server.name, server.protocolEra])).toEqual([
      ["modern", "2026-07-28"],
      ["pinned", "2026-07-28"],
      // The dual-era v2 server answers server/discover too: auto finds 2026-07-28 there as well.
      ["dual", "2026-07-28"],
    ]);
  }, 60_000);

  it("call works on the modern-only server (in process, with the default loader)", async () => {
    const result = await runCliCaptured(
      ["call", "modern/echo", "--args", '{"text":"from the CLI"}', "--yes", "--config", config],
      { cwd: dir, env: { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_AUTH_DIR: join(dir, "auth") } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("echo: from the CLI");
  }, 60_000);
});

describe("the CLI without @mcp-tool-adapter/engine-2026", () => {
  it('auto works as before (2025 on the dual-era server); "2026-07-28" is the config error naming the package', async () => {
    const result = await runCliCaptured(["check", "--config", config, "--json"], {
      cwd: dir,
      loadEngine2026: () => Promise.resolve(undefined),
      env: { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_AUTH_DIR: join(dir, "auth") },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      servers: { name: string; protocolEra?: string; error?: { kind: string; code?: string; message: string } }[];
    };
    const byName = Object.fromEntries(report.servers.map((server) => [server.name, server]));
    expect(byName.dual?.protocolEra).toBe("2025");
    // A modern-only server refuses the 2025 handshake.
    expect(byName.modern?.error?.kind).toBe("connection_failed");
    expect(byName.pinned?.error).toMatchObject({ kind: "config_invalid", code: "CONFIG_INVALID" });
    expect(byName.pinned?.error?.message).toContain("install @mcp-tool-adapter/engine-2026");
  }, 60_000);

  it("does not look for the package when no entry wants it", async () => {
    const legacyOnly = join(dir, "legacy.json");
    await writeFile(
      legacyOnly,
      JSON.stringify({ mcpServers: { dual: { type: "http", url: dual.url, protocol: "2025" } } }),
    );
    let looked = 0;
    const result = await runCliCaptured(["check", "--config", legacyOnly], {
      cwd: dir,
      loadEngine2026: () => {
        looked += 1;
        return Promise.resolve(undefined);
      },
      env: { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_AUTH_DIR: join(dir, "auth") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(looked).toBe(0);
  }, 60_000);
});

describe("loadInstalledEngine2026", () => {
  it("finds the copy beside the CLI, and prefers one installed in the user's project", async () => {
    expect(typeof (await loadInstalledEngine2026(dir))).toBe("function");
    // A project with its own copy: that one is loaded (a stand-in package that names itself).
    const project = join(dir, "project");
    const packageDir = join(project, "node_modules", "@mcp-tool-adapter", "engine-2026");
    await mkdir(packageDir, { recursive: true });
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
    await writeFile(
      join(packageDir, "package.json"),
      JSON.stringify({ name: "@mcp-tool-adapter/engine-2026", type: "module", exports: "./index.js" }),
    );
    await writeFile(join(packageDir, "index.js"), 'export const createEngine2026 = () => "the project\'s copy";\n');
    const create = await loadInstalledEngine2026(project);
    expect((create as unknown as () => string)()).toBe("the project's copy");
  });
});
