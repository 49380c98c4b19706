import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOAuthProtectedServer, type OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";

export interface OAuthServerWithTempRoot {
  /** The OAuth-protected MCP server with its oidc-provider authorization server. */
  readonly server: OAuthProtectedServer;
  /** A fresh temporary directory (a random name per run) for the test's credential stores. */
  readonly root: string;
  /** Stops the server and removes the directory. */
  close(): Promise<void>;
}

/** The OAuth server and a temporary root, as the oauth package's store tests use them (one per file, in beforeAll). */
export async function startOAuthServerWithTempRoot(tempPrefix: string): Promise<OAuthServerWithTempRoot> {
  const server = await startOAuthProtectedServer();
  let root: string;
  try {
    root = await mkdtemp(join(tmpdir(), tempPrefix));
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    root,
    close: async () => {
      try {
        await server.stop();
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },
  };
}
