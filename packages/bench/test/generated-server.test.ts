import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typeScriptNodeArgs, workerPath } from "../src/workers/spawn-worker.js";

// The peer comparison lists the generated server's tools over streamable HTTP too.
describe("generated-tools server --http", () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    server = spawn(
      process.execPath,
      [
        ...typeScriptNodeArgs(),
        workerPath("../servers/generated-tools-server.ts"),
        "--tools=7",
        "--page-size=3",
        "--http",
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    url = await new Promise<string>((resolve, reject) => {
      let seen = "";
      server.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        seen += chunk;
        const match = /listening (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
        if (match !== null) resolve(match[1]!);
      });
      server.once("exit", (code) => reject(new Error(`server exited (${String(code)}) before listening`)));
    });
  }, 60_000);

  afterAll(() => {
    if (server.exitCode === null) server.kill();
  });

  it("serves each client its own session, listing every tool in pages and answering calls", async () => {
    const clients = [0, 1].map(() => new Client({ name: "test", version: "0.0.0" }));
    await Promise.all(clients.map((client) => client.connect(new StreamableHTTPClientTransport(new URL(url)))));
    for (const client of clients) {
      const first = await client.listTools();
      expect(first.tools).toHaveLength(3);
      const names = [...first.tools.map((tool) => tool.name)];
      let cursor = first.nextCursor;
      while (cursor !== undefined) {
        const page = await client.listTools({ cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      }
      expect(new Set(names).size).toBe(7);
      const result = await client.callTool({ name: names[0]!, arguments: { query: "x" } });
      expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ query: "x" }) }]);
    }
    await Promise.all(clients.map((client) => client.close()));
  });

  it("exits when its stdin closes, as when the bench ends", async () => {
    const exited = once(server, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    server.stdin?.end();
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
