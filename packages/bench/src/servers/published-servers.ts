import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * Published MCP servers from the npm registry (devDependencies of the bench) that start offline
 * and answer tools/list without credentials: the keys their start-up checks for get dummy values,
 * used only if a tool were called, which the bench never does.
 */
export interface PublishedServer {
  /** The namespace its tools get in the labelled set. */
  readonly namespace: string;
  readonly packageName: string;
  readonly binary: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export const PUBLISHED_SERVERS: readonly PublishedServer[] = [
  { namespace: "everything", packageName: "@modelcontextprotocol/server-everything", binary: "dist/index.js" },
  {
    namespace: "filesystem",
    packageName: "@modelcontextprotocol/server-filesystem",
    binary: "dist/index.js",
    args: [tmpdir()],
  },
  { namespace: "memory", packageName: "@modelcontextprotocol/server-memory", binary: "dist/index.js" },
  {
    namespace: "thinking",
    packageName: "@modelcontextprotocol/server-sequential-thinking",
    binary: "dist/index.js",
  },
  {
    namespace: "github",
    packageName: "@modelcontextprotocol/server-github",
    binary: "dist/index.js",
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "dummy" },
  },
  {
    namespace: "gitlab",
    packageName: "@modelcontextprotocol/server-gitlab",
    binary: "dist/index.js",
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: "dummy" },
  },
  {
    namespace: "slack",
    packageName: "@modelcontextprotocol/server-slack",
    binary: "dist/index.js",
    env: { SLACK_BOT_TOKEN: "dummy", SLACK_TEAM_ID: "T0" },
  },
  {
    namespace: "brave",
    packageName: "@modelcontextprotocol/server-brave-search",
    binary: "dist/index.js",
    env: { BRAVE_API_KEY: "dummy" },
  },
  {
    namespace: "maps",
    packageName: "@modelcontextprotocol/server-google-maps",
    binary: "dist/index.js",
    env: { GOOGLE_MAPS_API_KEY: "dummy" },
  },
  {
    namespace: "postgres",
    packageName: "@modelcontextprotocol/server-postgres",
    binary: "dist/index.js",
    args: ["postgresql://127.0.0.1:1/none"],
  },
  {
    namespace: "everart",
    packageName: "@modelcontextprotocol/server-everart",
    binary: "dist/index.js",
    env: { EVERART_API_KEY: "dummy" },
  },
  {
    namespace: "awskb",
    packageName: "@modelcontextprotocol/server-aws-kb-retrieval",
    binary: "dist/index.js",
    env: { AWS_ACCESS_KEY_ID: "dummy", AWS_SECRET_ACCESS_KEY: "dummy", AWS_REGION: "us-east-1" },
  },
  { namespace: "puppeteer", packageName: "@modelcontextprotocol/server-puppeteer", binary: "dist/index.js" },
  { namespace: "playwright", packageName: "@playwright/mcp", binary: "cli.js", args: ["--headless"] },
  {
    namespace: "notion",
    packageName: "@notionhq/notion-mcp-server",
    binary: "bin/cli.mjs",
    env: { NOTION_TOKEN: "dummy" },
  },
];

export interface ServerTools {
  readonly server: PublishedServer;
  readonly tools: readonly Tool[];
}

export interface ServerFailure {
  readonly server: PublishedServer;
  readonly reason: string;
}

const require = createRequire(import.meta.url);

const LIST_RESULT = z.looseObject({
  tools: z.array(
    z.looseObject({ name: z.string(), description: z.string().optional(), inputSchema: z.looseObject({}) }),
  ),
  nextCursor: z.string().optional(),
});

/** Starts the server over stdio, reads tools/list (every page), stops it. */
export async function readServerTools(server: PublishedServer, timeoutMs = 60_000): Promise<ServerTools> {
  const root = dirname(require.resolve(`${server.packageName}/package.json`));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, server.binary), ...(server.args ?? [])],
    env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), ...server.env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-tool-search", version: "0.0.0" });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      // Read as published, not through the SDK's strict result schema: a server whose schemas
      // the SDK rejects (GitLab's lacks `type: "object"`) still has tools a user searches.
      const page = await client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        LIST_RESULT,
        { timeout: timeoutMs },
      );
      tools.push(...(page.tools as Tool[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { server, tools };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Reads every published server's tools, two at a time; a server that fails is reported, not fatal. */
export async function readPublishedServers(
  servers: readonly PublishedServer[] = PUBLISHED_SERVERS,
): Promise<{ read: ServerTools[]; failed: ServerFailure[] }> {
  const read: ServerTools[] = [];
  const failed: ServerFailure[] = [];
  const queue = [...servers];
  const worker = async (): Promise<void> => {
    for (let server = queue.shift(); server !== undefined; server = queue.shift()) {
      try {
        read.push(await readServerTools(server));
      } catch (error) {
        failed.push({ server, reason: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all([worker(), worker()]);
  const order = (entry: { server: PublishedServer }): number => servers.indexOf(entry.server);
  return { read: read.sort((a, b) => order(a) - order(b)), failed };
}
