import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  OAUTH_MACHINE_CLIENT,
  startOAuthProtectedServer,
  type OAuthProtectedServer,
} from "@mcp-tool-adapter/test-servers";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliIO } from "../src/index.js";

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

  it("login refuses a server without an auth entry, saying what to add", async () => {
    await writeFile(
      join(directory, "plain.json"),
      JSON.stringify({ mcpServers: { plain: { type: "http", url: server.mcpUrl } } }),
    );
    let stderr = "";
    const code = await runCli(["login", "plain", "--config", join(directory, "plain.json")], {
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      env,
      isTTY: false,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('"auth": { "type": "oauth" }');
  });
});
