import { everythingStdioServer, startEverythingHttp, type EverythingHttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFloorClient } from "../src/peers/clients/floor.js";
import type { PeerClient, PeerTarget } from "../src/peers/peer-client.js";
import { typeScriptNodeArgs, workerPath } from "../src/workers/spawn-worker.js";

/** The floor side (issue 36) against real servers: it must really call and list, or its figures mean nothing. */
async function exercise(client: PeerClient): Promise<void> {
  await client.connect();
  try {
    await client.call("echo", { message: "floor" });
    await Promise.all(Array.from({ length: 20 }, (_, index) => client.call("echo", { message: `in flight ${index}` })));
    await expect(client.call("no-such-tool", {})).rejects.toThrow(/floor/);
  } finally {
    await client.close();
  }
}

describe("floor client", () => {
  let http: EverythingHttpServer | undefined;

  beforeAll(async () => {
    http = await startEverythingHttp({ mode: "streamableHttp" });
  }, 60_000);

  afterAll(async () => {
    await http?.stop();
  });

  it("calls server-everything's echo over stdio, many in flight, and rejects a failed call", async () => {
    const create = await loadFloorClient("stdio");
    const { command, args } = everythingStdioServer();
    await exercise(create({ kind: "stdio", command, args: [...args] }));
  });

  it("calls server-everything's echo over streamable HTTP with one fetch per call", async () => {
    const create = await loadFloorClient("streamable-http");
    await exercise(create({ kind: "streamable-http", url: http!.url }));
  });

  it("lists every page of the generated server over stdio", async () => {
    const create = await loadFloorClient("stdio");
    const target: PeerTarget = {
      kind: "stdio",
      command: process.execPath,
      args: [
        ...typeScriptNodeArgs(),
        workerPath("../servers/generated-tools-server.ts"),
        "--tools=250",
        "--page-size=100",
      ],
    };
    const client = create(target);
    await client.connect();
    try {
      expect(await client.listAll()).toBe(250);
    } finally {
      await client.close();
    }
  });

  it("refuses a target of the other transport", async () => {
    const create = await loadFloorClient("stdio");
    await expect(create({ kind: "streamable-http", url: "http://127.0.0.1:1/mcp" }).connect()).rejects.toThrow(
      /floor: loaded for stdio/,
    );
  });
});
