import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  OAUTH_MACHINE_CLIENT,
  startEverythingHttp,
  startFaultHttpServer,
  startOAuthProtectedServer,
  type EverythingHttpServer,
  type FaultHttpServer,
  type OAuthProtectedServer,
} from "@mcp-tool-adapter/test-servers";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../src/index.js";

let server: OAuthProtectedServer;
let directory: string;
let configFile: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startOAuthProtectedServer();
  directory = await mkdtemp(join(tmpdir(), "cli-auth-"));
  configFile = join(directory, "mcp.json");
  env = {
    ...process.env,
    NO_COLOR: "1",
    MCP_TOOL_ADAPTER_AUTH_DIR: join(directory, "auth"),
    MACHINE_SECRET: OAUTH_MACHINE_CLIENT.clientSecret,
  };
  await writeFile(
    configFile,
    JSON.stringify({
      mcpServers: {
        protected: { type: "http", url: server.mcpUrl, auth: { type: "oauth" } },
        machine: {
          type: "http",
          // Another path to the same MCP server: its own stored credentials.
          url: `${server.mcpUrl}?as=machine`,
          auth: {
            type: "client_credentials",
            clientId: OAUTH_MACHINE_CLIENT.clientId,
            clientSecret: "${MACHINE_SECRET}",
            authorizationServer: server.issuer,
          },
        },
      },
    }),
  );
});
afterAll(async () => {
  await server.stop();
  await rm(directory, { recursive: true, force: true });
});

function cli(argv: string[], io: Partial<CliIO> = {}): Promise<CapturedRun> {
  return runCliCaptured([...argv, "--config", configFile], { env, cwd: directory, ...io });
}

describe("CLI login / logout / auth status against oidc-provider", () => {
  it("check says which login command to run before the login", async () => {
    const result = await cli(["check", "--json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      servers: { name: string; error?: { code?: string; message: string } }[];
    };
    const protectedServer = report.servers.find((s) => s.name === "protected");
    expect(protectedServer?.error?.message).toContain(
      `run \`mcp-tool-adapter login protected --config ${JSON.stringify(configFile)}\``,
    );
    // The machine server authorizes by itself with its client credentials.
    expect(report.servers.find((s) => s.name === "machine")?.error).toBeUndefined();
  });

  it("login plays through the browser; then tools and call work and auth status shows no token", async () => {
    let browsed: Promise<{ status: number }> | undefined;
    const login = await cli(["login", "protected"], {
      showAuthorizationUrl: (url) => {
        browsed = server.browse(url);
      },
    });
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect(login.stdout).toContain("Logged in to protected");
    expect((await browsed)?.status).toBe(200);

    const call = await cli(["call", "protected/whoami", "--json", "--yes"]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain("alice");

    const status = await cli(["auth", "status", "--json"]);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout) as { servers: { server: string; status: string; scope?: string }[] };
    expect(report.servers.find((s) => s.server === "protected")).toMatchObject({ status: "logged-in" });
    const storedFiles = await readdir(join(directory, "auth"));
    const stored = await Promise.all(storedFiles.map((name) => readFile(join(directory, "auth", name), "utf8")));
    for (const text of stored) {
      const token = (JSON.parse(text) as { tokens?: { access_token?: string } }).tokens?.access_token;
      if (token !== undefined) expect(status.stdout + call.stdout + login.stdout).not.toContain(token);
    }
  });

  it("logout forgets the login, and call then asks for it again", async () => {
    const logout = await cli(["logout", "protected"]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain("Logged out of protected");
    const call = await cli(["call", "protected/whoami"]);
    expect(call.code).toBe(1);
    expect(call.stderr + call.stdout).toContain("run `mcp-tool-adapter login protected");
  });

  it("at a terminal, call logs in by itself instead of naming the login command", async () => {
    // Logged out by the test before; stdin not a terminal would fail as above.
    const browsed: URL[] = [];
    const call = await cli(["call", "protected/whoami", "--yes"], {
      isTTY: true,
      stdinIsTTY: true,
      showAuthorizationUrl: (url) => {
        browsed.push(url);
        void server.browse(url);
      },
    });
    expect(call.stderr).not.toContain("mcp-tool-adapter login protected");
    expect(call.code).toBe(0);
    expect(call.stdout).toContain("alice");
    expect(browsed).toHaveLength(1);
  });
});

describe("an HTTP entry without auth, behind oidc-provider", () => {
  let plainConfig: string;
  let plainEnv: Record<string, string | undefined>;
  let open: EverythingHttpServer;
  let challenging: FaultHttpServer;

  beforeAll(async () => {
    [open, challenging] = await Promise.all([
      startEverythingHttp({ mode: "streamableHttp" }),
      startFaultHttpServer({
        kind: "status",
        status: 401,
        headers: {
          "WWW-Authenticate": 'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource"',
        },
      }),
    ]);
    plainConfig = join(directory, "plain.json");
    plainEnv = { ...env, MCP_TOOL_ADAPTER_AUTH_DIR: join(directory, "plain-auth") };
    await writeFile(
      plainConfig,
      JSON.stringify({
        mcpServers: {
          plain: { type: "http", url: server.mcpUrl },
          open: { type: "http", url: open.url },
          challenging: { type: "http", url: challenging.url },
        },
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([open.stop(), challenging.close()]);
  });

  function plain(argv: string[], io: Partial<CliIO> = {}): Promise<CapturedRun> {
    return runCliCaptured([...argv, "--config", plainConfig], { env: plainEnv, cwd: directory, ...io });
  }

  it("before a login, check names the login command (AUTH_REQUIRED); a server without auth works as before, storing nothing", async () => {
    const result = await plain(["check", "--json"]);
    const report = JSON.parse(result.stdout) as {
      servers: { name: string; error?: { code?: string; message: string } }[];
    };
    const byName = Object.fromEntries(report.servers.map((entry) => [entry.name, entry.error]));
    expect(byName.plain).toMatchObject({ code: "AUTH_REQUIRED" });
    expect(byName.plain?.message).toContain(
      `run \`mcp-tool-adapter login plain --config ${JSON.stringify(plainConfig)}\``,
    );
    expect(byName.open).toBeUndefined();
    expect(byName.challenging).toMatchObject({ code: "AUTH_REQUIRED" });
    // The 401 alone decides: no discovery request follows it.
    expect(challenging.requests.every((request) => !request.url.includes(".well-known"))).toBe(true);
    await expect(readdir(join(directory, "plain-auth"))).rejects.toThrow();
  });

  it("login works without an auth entry; then call and auth status use the stored login", async () => {
    let browsed: Promise<{ status: number }> | undefined;
    const login = await plain(["login", "plain"], {
      showAuthorizationUrl: (url) => {
        browsed = server.browse(url);
      },
    });
    expect(login.code).toBe(0);
    expect((await browsed)?.status).toBe(200);

    const call = await plain(["call", "plain/whoami", "--yes"]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain("alice");

    const status = await plain(["auth", "status", "--json"]);
    const rows = (JSON.parse(status.stdout) as { servers: { server: string; status: string }[] }).servers;
    expect(rows).toEqual([expect.objectContaining({ server: "plain", status: "logged-in" })]);
  });

  it("a rejected access token is refreshed without the user", async () => {
    const [file] = await readdir(join(directory, "plain-auth"));
    const path = join(directory, "plain-auth", file ?? "");
    const stored = JSON.parse(await readFile(path, "utf8")) as { tokens: { access_token: string } };
    const stale = stored.tokens.access_token;
    stored.tokens.access_token = "no-longer-valid";
    await writeFile(path, JSON.stringify(stored), { mode: 0o600 });

    const call = await plain(["call", "plain/whoami", "--yes"]);
    expect(call.code).toBe(0);
    const refreshed = (JSON.parse(await readFile(path, "utf8")) as { tokens: { access_token: string } }).tokens;
    expect(refreshed.access_token).not.toBe("no-longer-valid");
    expect(refreshed.access_token).not.toBe(stale);
  });

  it("a store other users can read stops the logged-in server with the chmod fix; a server without auth still works", async () => {
    const store = join(directory, "plain-auth");
    await chmod(store, 0o755);
    try {
      const result = await plain(["check", "--json"]);
      const report = JSON.parse(result.stdout) as {
        servers: { name: string; error?: { code?: string; message: string } }[];
      };
      const byName = Object.fromEntries(report.servers.map((entry) => [entry.name, entry.error]));
      expect(byName.plain).toMatchObject({ code: "AUTH_STORE_INSECURE" });
      expect(byName.plain?.message).toContain(`chmod 700 ${store}`);
      expect(byName.open).toBeUndefined();
    } finally {
      await chmod(store, 0o700);
    }
  });

  it("auth status moves a login of the per-server layout to its new file and shows it", async () => {
    const store = join(directory, "legacy-auth");
    await mkdir(store, { mode: 0o700 });
    const [current] = await readdir(join(directory, "plain-auth"));
    const record = await readFile(join(directory, "plain-auth", current ?? ""), "utf8");
    // The name the per-server layout gave it: host, then a hash of the URL.
    const legacy = `${new URL(server.mcpUrl).host.replace(/[^a-zA-Z0-9.-]/g, "_")}-${createHash("sha256").update(server.mcpUrl).digest("hex").slice(0, 16)}.json`;
    await writeFile(join(store, legacy), record, { mode: 0o600 });

    const status = await runCliCaptured(["auth", "status", "--json", "--config", plainConfig], {
      env: { ...plainEnv, MCP_TOOL_ADAPTER_AUTH_DIR: store },
      cwd: directory,
    });
    const rows = (JSON.parse(status.stdout) as { servers: { server: string; status: string }[] }).servers;
    expect(rows).toEqual([expect.objectContaining({ server: "plain", status: "logged-in" })]);
    expect(await readdir(store)).toEqual([current]);
  });
});
