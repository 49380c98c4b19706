import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Static } from "typebox";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { StdioServerConfig } from "@mcp-tool-adapter/transport-stdio";
import { ConfigFileServerEntrySchema, type ConfigFileServerEntry } from "../src/config-schema-entry.js";
import type { HttpServerConfig } from "../src/http-entry.js";
import {
  loadConfigFile,
  MCPConfigFileError,
  parseConfig as parseConfigLazily,
  type CapabilityOverrides,
  type ServerEntry,
} from "../src/index.js";
import { expandEnvReferences } from "../src/config-file/expand-env.js";
// The tests of parsing call the module's synchronous parseConfig; the public one loads it on first use.
import { parseConfig } from "../src/config-file/load-config-file.js";
import type { ServerToolsConfigSchema } from "../src/config-file/schema.js";

const env = { HOME: "/home/ada", TOKEN: "s3cret", EMPTY: "" };

function parseJson(document: unknown, options: { env?: Record<string, string>; servers?: string[] } = {}) {
  return parseConfig(JSON.stringify(document), {
    file: "/cfg/mcp.json",
    env: options.env ?? env,
    ...(options.servers ? { servers: options.servers } : {}),
  });
}

function configError(run: () => unknown): MCPConfigFileError {
  try {
    run();
  } catch (error) {
    if (MCPConfigFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an MCPConfigFileError, nothing was thrown");
}

async function configErrorAsync(run: () => Promise<unknown>): Promise<MCPConfigFileError> {
  try {
    await run();
  } catch (error) {
    if (MCPConfigFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an MCPConfigFileError, nothing was thrown");
}

describe("config files: the public parseConfig", () => {
  it("loads the config-file code on first use and resolves to what the parser returns", async () => {
    const text = JSON.stringify({ mcpServers: { a: { command: "node" } } });
    await expect(parseConfigLazily(text, { file: "/cfg/mcp.json", env })).resolves.toEqual(
      parseConfig(text, { file: "/cfg/mcp.json", env }),
    );
    await expect(parseConfigLazily("{", { file: "/cfg/mcp.json", env })).rejects.toMatchObject({
      code: expect.any(String) as string,
    });
  });
});

describe("config file shapes", () => {
  it("reads Claude Desktop / Cursor mcpServers: command -> stdio, url -> streamable-http, /sse -> sse", () => {
    const config = parseJson({
      mcpServers: {
        files: { command: "npx", args: ["-y", "server-filesystem", "/tmp"], env: { DEBUG: "1" } },
        remote: { url: "https://mcp.example.invalid/mcp", headers: { Authorization: "Bearer x" } },
        legacy: { url: "http://127.0.0.1:3001/sse" },
      },
    });
    expect(config.servers).toEqual({
      files: { transport: "stdio", command: "npx", args: ["-y", "server-filesystem", "/tmp"], env: { DEBUG: "1" } },
      remote: {
        transport: "streamable-http",
        url: "https://mcp.example.invalid/mcp",
        headers: { Authorization: "Bearer x" },
      },
      legacy: { transport: "sse", url: "http://127.0.0.1:3001/sse" },
    });
    expect(Object.keys(config.servers)).toEqual(["files", "remote", "legacy"]);
  });

  it("reads VS Code's servers with type stdio / http / sse", () => {
    const config = parseJson({
      inputs: [],
      servers: {
        local: { type: "stdio", command: "node", args: ["server.js"] },
        web: { type: "http", url: "http://127.0.0.1:9/mcp" },
        events: { type: "sse", url: "http://127.0.0.1:9/events" },
      },
    });
    expect(config.servers.local).toEqual({ transport: "stdio", command: "node", args: ["server.js"] });
    expect(config.servers.web).toEqual({ transport: "streamable-http", url: "http://127.0.0.1:9/mcp" });
    expect(config.servers.events).toEqual({ transport: "sse", url: "http://127.0.0.1:9/events" });
  });

  it("lets an explicit transport override the /sse inference", () => {
    const config = parseJson({ mcpServers: { s: { url: "http://127.0.0.1:9/sse", transport: "streamable-http" } } });
    expect(config.servers.s?.transport).toBe("streamable-http");
  });

  it("keeps tools include / exclude / overrides and drops disabled servers and unknown fields", () => {
    const config = parseJson({
      mcpServers: {
        kept: {
          command: "node",
          autoApprove: ["x"],
          tools: {
            include: ["get_*"],
            exclude: ["get_env"],
            overrides: { get_thing: { readOnly: false, writes: true } },
          },
          connectTimeoutMs: 5000,
          callTimeoutMs: 120000,
        },
        off: { command: "node", disabled: true, env: { X: "${UNSET_BUT_DISABLED}" } },
      },
    });
    expect(config.servers).toEqual({
      kept: {
        transport: "stdio",
        command: "node",
        tools: {
          include: ["get_*"],
          exclude: ["get_env"],
          overrides: { get_thing: { readOnly: false, writes: true } },
        },
        connectTimeoutMs: 5000,
        callTimeoutMs: 120000,
      },
    });
  });

  it("reads the same config from YAML", () => {
    const yaml = [
      "mcpServers:",
      "  memory:",
      "    command: node",
      "    args: [server.js]",
      "    env:",
      "      MEMORY_FILE_PATH: ${HOME}/memory.jsonl",
      "    tools:",
      "      exclude: [delete_*]",
      "  remote:",
      "    url: http://127.0.0.1:9/mcp",
      "",
    ].join("\n");
    const config = parseConfig(yaml, { file: "/cfg/mcp.yaml", env });
    expect(config.format).toBe("yaml");
    expect(config.servers).toEqual({
      memory: {
        transport: "stdio",
        command: "node",
        args: ["server.js"],
        env: { MEMORY_FILE_PATH: "/home/ada/memory.jsonl" },
        tools: { exclude: ["delete_*"] },
      },
      remote: { transport: "streamable-http", url: "http://127.0.0.1:9/mcp" },
    });
  });

  it("accepts JSONC comments and trailing commas (VS Code's mcp.json)", () => {
    const text =
      '{\n  // my servers\n  "servers": {\n    /* local */ "a": { "command": "node", "args": ["x",], },\n  },\n}\n';
    expect(parseConfig(text, { file: "/cfg/mcp.json", env }).servers).toEqual({
      a: { transport: "stdio", command: "node", args: ["x"] },
    });
  });

  it("selects servers by name, and names the known ones for an unknown name", () => {
    const document = { mcpServers: { a: { command: "a" }, b: { command: "b", env: { T: "${NOT_SET}" } } } };
    expect(Object.keys(parseJson(document, { servers: ["a"] }).servers)).toEqual(["a"]);
    const error = configError(() => parseJson(document, { servers: ["c"] }));
    expect(error.code).toBe("CONFIG_FILE_INVALID");
    expect(error.message).toContain('no server "c"');
    expect(error.message).toContain('"a", "b"');
  });
});

describe("config file schema", () => {
  // Type-level: `tsc` fails when the file's schema and the types it stands for drift apart.
  it("is the transports' fields plus the file-only ones, and matches the public entry types", () => {
    expectTypeOf<Pick<ConfigFileServerEntry, keyof StdioServerConfig>>().toEqualTypeOf<Partial<StdioServerConfig>>();
    expectTypeOf<Pick<ConfigFileServerEntry, keyof HttpServerConfig>>().toEqualTypeOf<Partial<HttpServerConfig>>();
    type ServerToolsConfig = NonNullable<ServerEntry["tools"]>;
    expectTypeOf<Static<typeof ServerToolsConfigSchema>>().toEqualTypeOf<ServerToolsConfig>();
    expectTypeOf<NonNullable<ServerToolsConfig["overrides"]>[string]>().toEqualTypeOf<CapabilityOverrides>();
    // Run time: the transports' own property schemas, not copies.
    expect(Object.keys(ConfigFileServerEntrySchema.properties)).toEqual(
      expect.arrayContaining([
        "type",
        "transport",
        "tools",
        "connectTimeoutMs",
        "callTimeoutMs",
        "disabled",
        "command",
        "args",
        "env",
        "cwd",
        "inheritEnv",
        "url",
        "headers",
      ]),
    );
  });
});

describe("environment expansion", () => {
  it("expands ${VAR}, ${VAR:-default}, ${env:VAR} and keeps $${ literal", () => {
    expect(expandEnvReferences("${HOME}/x", env).value).toBe("/home/ada/x");
    expect(expandEnvReferences("${MISSING:-fallback}", env).value).toBe("fallback");
    expect(expandEnvReferences("${EMPTY:-used-when-empty}", env).value).toBe("used-when-empty");
    expect(expandEnvReferences("${TOKEN:-ignored}", env).value).toBe("s3cret");
    expect(expandEnvReferences("Bearer ${env:TOKEN}", env).value).toBe("Bearer s3cret");
    expect(expandEnvReferences("$${HOME} and $HOME", env).value).toBe("${HOME} and $HOME");
    expect(expandEnvReferences("${MISSING:-}", env).value).toBe("");
  });

  it("expands every string of an entry: command, args, env values, url, headers", () => {
    const config = parseJson({
      mcpServers: {
        local: { command: "${HOME}/bin/server", args: ["--token=${TOKEN}"], env: { KEY: "${TOKEN}" }, cwd: "${HOME}" },
        remote: { url: "http://127.0.0.1:${PORT:-8080}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      },
    });
    expect(config.servers.local).toEqual({
      transport: "stdio",
      command: "/home/ada/bin/server",
      args: ["--token=s3cret"],
      env: { KEY: "s3cret" },
      cwd: "/home/ada",
    });
    expect(config.servers.remote).toEqual({
      transport: "streamable-http",
      url: "http://127.0.0.1:8080/mcp",
      headers: { Authorization: "Bearer s3cret" },
    });
  });

  it("passes inheritEnv through for stdio servers and refuses it for HTTP ones", () => {
    const config = parseJson({
      mcpServers: { all: { command: "node", inheritEnv: true }, some: { command: "node", inheritEnv: ["LANG"] } },
    });
    expect(config.servers.all).toEqual({ transport: "stdio", command: "node", inheritEnv: true });
    expect(config.servers.some).toEqual({ transport: "stdio", command: "node", inheritEnv: ["LANG"] });
    const wrongType = configError(() => parseJson({ mcpServers: { bad: { command: "node", inheritEnv: "yes" } } }));
    expect(wrongType.issues).toEqual([expect.objectContaining({ server: "bad", field: "inheritEnv" })]);
    const remote = configError(() =>
      parseJson({ mcpServers: { remote: { url: "http://127.0.0.1:1/mcp", inheritEnv: true } } }),
    );
    expect(remote.issues).toEqual([
      expect.objectContaining({
        server: "remote",
        field: "inheritEnv",
        message: expect.stringContaining("not used by the streamable-http transport") as string,
      }),
    ]);
  });

  it("reports an unset variable with its name, the file, the server and the field", () => {
    const error = configError(() =>
      parseJson({ mcpServers: { github: { command: "gh-mcp", env: { GITHUB_TOKEN: "${GITHUB_PAT}" } } } }),
    );
    expect(error.code).toBe("CONFIG_ENV_UNSET");
    expect(error.file).toBe("/cfg/mcp.json");
    expect(error.server).toBe("github");
    expect(error.field).toBe("env.GITHUB_TOKEN");
    expect(error.message).toContain('"GITHUB_PAT"');
    expect(error.message).toContain("/cfg/mcp.json");
    expect(error.message).toContain('server "github"');
    expect(error.message).toContain('field "env.GITHUB_TOKEN"');
  });

  it("reports every unset variable at once, and an invalid reference as such", () => {
    const error = configError(() => parseJson({ mcpServers: { a: { command: "x", args: ["${ONE}", "${TWO}"] } } }));
    expect(error.issues.map((i) => i.field)).toEqual(["args[0]", "args[1]"]);
    const invalid = configError(() => parseJson({ mcpServers: { a: { command: "x", args: ["${input:api-key}"] } } }));
    expect(invalid.code).toBe("CONFIG_FILE_INVALID");
    expect(invalid.message).toContain("${input:api-key}");
  });

  it("never expands in keys and never reads process.env when a map is injected", () => {
    process.env.MCP_TOOL_ADAPTER_TEST_ONLY = "from-process";
    try {
      const error = configError(() =>
        parseJson({ mcpServers: { a: { command: "${MCP_TOOL_ADAPTER_TEST_ONLY}" } } }, { env: {} }),
      );
      expect(error.code).toBe("CONFIG_ENV_UNSET");
    } finally {
      delete process.env.MCP_TOOL_ADAPTER_TEST_ONLY;
    }
    expect(parseJson({ mcpServers: { a: { command: "x", env: { "${TOKEN}": "v" } } } }).servers.a).toMatchObject({
      env: { "${TOKEN}": "v" },
    });
  });
});

describe("bad config files", () => {
  it("points at the line and column of a JSON syntax error", () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "node" }\n    "b": {}\n  }\n}\n';
    const error = configError(() => parseConfig(text, { file: "/cfg/mcp.json", env }));
    expect(error.code).toBe("CONFIG_FILE_SYNTAX");
    expect([error.line, error.column]).toEqual([4, 5]);
    expect(error.message).toMatch(/\/cfg\/mcp\.json at line 4, column 5/);
  });

  it("says what a JSON syntax error found and expected", () => {
    const cases: [string, [number, number], string][] = [
      [
        '{ "mcpServers": { "a": { "command": "node" } "b": {} } }',
        [1, 46],
        'unexpected character "\\"", expected "," or "}"',
      ],
      ['{ "mcpServers": { "a": { "args": ["x" "y"] } } }', [1, 39], 'expected "," or "]"'],
      ['{ "mcpServers": {\n  "a": { "command": \'node\' } } }', [2, 21], "a JSON value"],
      ['{ "mcpServers": { "a": { "command": "node" } } /* open', [1, 48], "unterminated /* comment"],
      ['{ "mcpServers": {} } {}', [1, 22], "expected end of input"],
      ["// only a comment\n", [2, 1], "the file is empty"],
    ];
    for (const [text, at, message] of cases) {
      const error = configError(() => parseConfig(text, { file: "/cfg/mcp.json", env }));
      expect(error.code).toBe("CONFIG_FILE_SYNTAX");
      expect([error.line, error.column]).toEqual(at);
      expect(error.message).toContain(message);
    }
  });

  it("refuses a duplicate JSON key at its line and column, and keeps a __proto__ key as data", () => {
    const duplicate = configError(() =>
      parseConfig('{\n  "mcpServers": {\n    "a": { "command": "x" },\n    "a": { "command": "y" }\n  }\n}', {
        file: "/cfg/mcp.json",
        env,
      }),
    );
    expect(duplicate.code).toBe("CONFIG_FILE_SYNTAX");
    expect([duplicate.line, duplicate.column]).toEqual([4, 5]);
    expect(duplicate.message).toContain('duplicate property name "a"');
    const config = parseConfig('\uFEFF{ "mcpServers": { "a": { "command": "x", "env": { "__proto__": "data" } } } }', {
      file: "/cfg/mcp.json",
      env,
    });
    const serverEnv = (config.servers.a as { env?: Record<string, string> }).env ?? {};
    expect(Object.getOwnPropertyNames(serverEnv)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(serverEnv)).toBe(Object.prototype);
  });

  it("points at the line and column of a YAML syntax error", () => {
    const text = "mcpServers:\n  a:\n    command: node\n  a:\n    command: other\n";
    const error = configError(() => parseConfig(text, { file: "/cfg/mcp.yml", env }));
    expect(error.code).toBe("CONFIG_FILE_SYNTAX");
    expect(error.line).toBe(4);
    expect(error.message).toContain("YAML");
  });

  it.each([
    ["an empty file", ""],
    ["a top-level array", "[]"],
    ["a file without servers", '{ "other": {} }'],
  ])("rejects %s", (_label, text) => {
    const error = configError(() => parseConfig(text, { file: "/cfg/mcp.json", env }));
    expect(["CONFIG_FILE_SYNTAX", "CONFIG_FILE_INVALID"]).toContain(error.code);
    expect(error.message).toContain("/cfg/mcp.json");
  });

  it("names the server and field of every wrongly typed field at once", () => {
    const error = configError(() =>
      parseJson({
        mcpServers: {
          a: { command: "node", args: "--flag", env: { N: 1 } },
          b: { url: 42 },
          c: { command: "x", tools: { includes: ["x"] } },
        },
      }),
    );
    expect(error.code).toBe("CONFIG_FILE_INVALID");
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ server: "a", field: "args" }),
        expect.objectContaining({ server: "a", field: "env.N" }),
        expect.objectContaining({ server: "b", field: "url" }),
        expect.objectContaining({
          server: "c",
          field: "tools",
          message: expect.stringContaining('"includes"') as string,
        }),
      ]),
    );
    expect(error.server).toBe("a");
    expect(error.message).toContain('server "c" field "tools"');
  });

  it("rejects entries that are neither stdio nor http, or mix both", () => {
    const neither = configError(() => parseJson({ mcpServers: { a: { args: ["x"] } } }));
    expect(neither.message).toMatch(/server "a".*needs "command".*or "url"/);
    const both = configError(() => parseJson({ mcpServers: { a: { command: "x", url: "http://127.0.0.1:1/mcp" } } }));
    expect(both.field).toBe("command");
    const foreign = configError(() =>
      parseJson({ servers: { a: { type: "http", url: "http://127.0.0.1:1/mcp", args: ["x"] } } }),
    );
    expect(foreign.field).toBe("args");
    expect(foreign.message).toContain("streamable-http");
    const conflicting = configError(() =>
      parseJson({ mcpServers: { a: { command: "x", type: "stdio", transport: "sse" } } }),
    );
    expect(conflicting.field).toBe("transport");
  });

  it("applies the adapter's rules: unknown transport names, empty commands, non-http urls", () => {
    const badType = configError(() => parseJson({ servers: { a: { type: "websocket", url: "ws://127.0.0.1:1" } } }));
    expect(badType.field).toBe("type");
    expect(badType.message).toContain('"stdio"');
    const emptyCommand = configError(() => parseJson({ mcpServers: { a: { command: "" } } }));
    expect(emptyCommand.field).toBe("command");
    const badUrl = configError(() => parseJson({ mcpServers: { a: { url: "ftp://127.0.0.1/x" } } }));
    expect(badUrl).toMatchObject({ server: "a", field: "url" });
  });

  it("rejects an unknown capability override", () => {
    const error = configError(() =>
      parseJson({ mcpServers: { a: { command: "x", tools: { overrides: { t: { readonly: true } } } } } }),
    );
    expect(error.field).toBe("tools.overrides.t");
    expect(error.message).toContain('"readonly"');
  });
});

describe("loadConfigFile", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcp-config-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads JSON and YAML files, relative to cwd", async () => {
    await writeFile(
      join(dir, "claude.json"),
      JSON.stringify({ mcpServers: { a: { command: "node", args: ["${TOKEN}"] } } }),
    );
    await writeFile(join(dir, "servers.yml"), "servers:\n  b:\n    type: sse\n    url: http://127.0.0.1:1/events\n");
    const json = await loadConfigFile("claude.json", { cwd: dir, env });
    expect(json).toEqual({
      file: join(dir, "claude.json"),
      format: "json",
      servers: { a: { transport: "stdio", command: "node", args: ["s3cret"] } },
    });
    const yaml = await loadConfigFile(join(dir, "servers.yml"), { env });
    expect(yaml.servers.b).toEqual({ transport: "sse", url: "http://127.0.0.1:1/events" });
  });

  it("gives one message per problem of a union field (recovery, auth, roots), naming every unknown field", async () => {
    const nineUnknown = Object.fromEntries("abcdefghi".split("").map((name) => [name, 1]));
    await writeFile(
      join(dir, "unions.yaml"),
      JSON.stringify({
        mcpServers: {
          many: { command: "node", recovery: nineUnknown },
          mixed: { command: "node", recovery: { maxAttempts: 0, bad: 1, jitter: 2 } },
          word: { command: "node", recovery: "yes" },
          fine: { command: "node", recovery: { maxAttempts: 2 } },
          oauth: { url: "http://127.0.0.1:1/mcp", auth: { type: "oauth", scope: "x" } },
          other: { url: "http://127.0.0.1:1/mcp", auth: { type: "basic" } },
          bearer: { url: "http://127.0.0.1:1/mcp", auth: { type: "bearer" } },
          root: { command: "node", roots: ["/a", { uri: "file:///b", label: "b" }, 3] },
        },
      }),
    );
    const error = await configErrorAsync(() => loadConfigFile("unions.yaml", { cwd: dir, env }));
    expect(error.code).toBe("CONFIG_FILE_INVALID");
    expect(error.issues).toEqual([
      { server: "many", field: "recovery", message: 'unknown field "a", "b", "c", "d", "e", "f", "g", "h", "i"' },
      { server: "mixed", field: "recovery.maxAttempts", message: "must be >= 1" },
      { server: "mixed", field: "recovery.jitter", message: "must be <= 1" },
      { server: "mixed", field: "recovery", message: 'unknown field "bad"' },
      { server: "word", field: "recovery", message: "must be a boolean or an object" },
      { server: "oauth", field: "auth", message: 'unknown field "scope"' },
      { server: "other", field: "auth.type", message: 'must be one of "oauth", "bearer", "client_credentials"' },
      { server: "bearer", field: "auth", message: "must have required properties token" },
      { server: "root", field: "roots[1]", message: 'unknown field "label"' },
      { server: "root", field: "roots[2]", message: "must be a string or an object" },
    ]);
    expect(error.message).not.toContain("must be boolean");
  });

  it("refuses a call deadline that is not a positive whole number of milliseconds, naming the server", async () => {
    await writeFile(
      join(dir, "deadlines.json"),
      JSON.stringify({
        mcpServers: {
          zero: { command: "node", callTimeoutMs: 0 },
          word: { command: "node", callTimeoutMs: "60s" },
          fine: { command: "node", callTimeoutMs: 1500 },
        },
      }),
    );
    const error = await configErrorAsync(() => loadConfigFile("deadlines.json", { cwd: dir, env }));
    expect(error.code).toBe("CONFIG_FILE_INVALID");
    expect(error.issues).toEqual([
      { server: "zero", field: "callTimeoutMs", message: "must be >= 1" },
      { server: "word", field: "callTimeoutMs", message: "must be integer" },
    ]);
  });

  it("reports a missing file as CONFIG_FILE_NOT_FOUND with its absolute path", async () => {
    const error = await configErrorAsync(() => loadConfigFile("nope.json", { cwd: dir }));
    expect(error.code).toBe("CONFIG_FILE_NOT_FOUND");
    expect(error.file).toBe(join(dir, "nope.json"));
    expect(error.message).toContain(join(dir, "nope.json"));
  });

  it("reports a directory or an unreadable file as CONFIG_FILE_UNREADABLE", async () => {
    await mkdir(join(dir, "a-directory.json"));
    const directory = await configErrorAsync(() => loadConfigFile(join(dir, "a-directory.json")));
    expect(directory.code).toBe("CONFIG_FILE_UNREADABLE");
    expect(directory.message).toContain("directory");
    const denied = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    const unreadable = await configErrorAsync(() =>
      loadConfigFile("/etc/x.json", { readFile: () => Promise.reject(denied) }),
    );
    expect(unreadable).toMatchObject({ code: "CONFIG_FILE_UNREADABLE", file: "/etc/x.json", cause: denied });
    expect(unreadable.message).toContain("permission denied");
  });

  it("keeps the file's name in syntax errors read from disk", async () => {
    const file = join(dir, "broken.yaml");
    await writeFile(file, "mcpServers:\n  a: [unclosed\n");
    await chmod(file, 0o644);
    const error = await configErrorAsync(() => loadConfigFile(file, { env }));
    expect(error).toMatchObject({ code: "CONFIG_FILE_SYNTAX", file });
    expect(error.line).toBeGreaterThan(0);
  });
});

describe("toolsets", () => {
  const servers = { memory: { command: "node", args: ["memory.js"] } };

  it("are read beside the servers, as named pattern lists", () => {
    const config = parseJson({ mcpServers: servers, toolsets: { research: ["memory/*", "!memory/delete_*"] } });
    expect(config.toolsets).toEqual({ research: ["memory/*", "!memory/delete_*"] });
    expect(parseJson({ mcpServers: servers }).toolsets).toBeUndefined();
  });

  it("name every bad pattern with its place", () => {
    let caught: unknown;
    try {
      parseJson({ mcpServers: servers, toolsets: { research: ["a/b/c", 7], writer: "memory/*" } });
    } catch (error) {
      caught = error;
    }
    expect(MCPConfigFileError.isInstance(caught)).toBe(true);
    const error = caught as MCPConfigFileError;
    expect(error.code).toBe("CONFIG_FILE_INVALID");
    expect(error.issues.map((issue) => issue.field)).toEqual([
      "toolsets.research[0]",
      "toolsets.research[1]",
      "toolsets.writer",
    ]);
    expect(error.message).toContain('field "toolsets.research[1]": must be a string');
    expect(() => parseJson({ mcpServers: servers, toolsets: ["memory/*"] })).toThrow(
      /field "toolsets": must be an object of toolsets by name/,
    );
  });
});
