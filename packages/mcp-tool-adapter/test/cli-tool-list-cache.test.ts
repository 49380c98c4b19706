import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDirectory, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runBin } from "./fixtures/run-bin.js";

const SERVER = fileURLToPath(new URL("./fixtures/listing-log-server.mjs", import.meta.url));

let directory: TempDirectory;
let log: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  directory = await createTempDirectory("cli-tool-list-cache-");
  log = join(directory.path, "requests.log");
  const config = { mcpServers: { logged: { command: process.execPath, args: [SERVER], env: { LISTING_LOG: log } } } };
  await writeFile(join(directory.path, "mcp.json"), JSON.stringify(config));
  env = { PATH: process.env["PATH"], HOME: directory.path, MCP_TOOL_ADAPTER_CACHE_DIR: join(directory.path, "cache") };
});
afterEach(() => directory.remove());

const requests = async (): Promise<string[]> => (await readFile(log, "utf8")).trim().split("\n");
const call = (...extra: string[]) =>
  runBin(["call", "logged/echo", "--config", "mcp.json", "--args", '{"message":"hi"}', ...extra], {
    cwd: directory.path,
    env,
  });

// Each test runs the real bin (several processes in a row): generous timeouts for a loaded machine.
describe("the CLI's tool-list cache, across processes", () => {
  it("a second `call` process lists nothing on the server; --no-cache lists again", async () => {
    expect(await call()).toMatchObject({ code: 0, stdout: expect.stringContaining("hi") as unknown });
    expect(await call()).toMatchObject({ code: 0, stdout: expect.stringContaining("hi") as unknown });
    expect(await requests()).toEqual(["tools/list", "tools/call", "tools/call"]);
    expect((await call("--no-cache")).code).toBe(0);
    expect(await requests()).toEqual(["tools/list", "tools/call", "tools/call", "tools/list", "tools/call"]);
  }, 180_000);

  it("a corrupt cache file is ignored: the call lists again and succeeds", async () => {
    expect((await call()).code).toBe(0);
    const cacheDir = join(directory.path, "cache");
    for (const file of await readdir(cacheDir)) await writeFile(join(cacheDir, file), "\u0000garbage");
    expect((await call()).code).toBe(0);
    expect(await requests()).toEqual(["tools/list", "tools/call", "tools/list", "tools/call"]);
  }, 120_000);
});
