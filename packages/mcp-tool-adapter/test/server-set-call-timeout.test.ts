import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { MCPServerSet, type MCPServerSetOptions, type ServerEntry } from "../src/index.js";

// A server set's call deadline: the set's callTimeoutMs, or its entry's (which wins), is the
// deadline of every call that sets none itself, as the gateway's and `serve`'s calls do. Real
// server-everything over stdio; its trigger-long-running-operation answers after `duration` s.
const SLOW = "everything/trigger-long-running-operation";

let open: MCPServerSet | undefined;

async function connected(entry: Partial<ServerEntry>, options: MCPServerSetOptions): Promise<MCPServerSet> {
  const set = new MCPServerSet(
    { everything: { transport: "stdio", ...everythingStdioServer(), ...entry } as ServerEntry },
    options,
  );
  open = set;
  expect((await set.connect()).ok).toBe(true);
  return set;
}

afterEach(async () => {
  await open?.close();
  open = undefined;
});
afterAll(async () => {
  await expectNoLeakedProcesses();
});

describe("MCPServerSet call deadlines", () => {
  it("times out a call that sets no deadline at the set's callTimeoutMs, and the server keeps working", async () => {
    const set = await connected({}, { callTimeoutMs: 400 });
    const slow = await set.registry.call(SLOW, { duration: 20, steps: 1 });
    expect(slow).toMatchObject({ success: false, errorKind: "timeout" });
    expect(slow.durationMs).toBeGreaterThanOrEqual(380);
    expect(slow.durationMs).toBeLessThan(5_000);
    expect(await set.registry.call("everything/echo", { message: "after" })).toMatchObject({ success: true });
  });

  it("lets a server's entry shorten the set's deadline", async () => {
    const set = await connected({ callTimeoutMs: 400 }, { callTimeoutMs: 60_000 });
    expect(await set.registry.call(SLOW, { duration: 20, steps: 1 })).toMatchObject({
      success: false,
      errorKind: "timeout",
    });
  });

  it("lets a server's entry lengthen the set's deadline", async () => {
    const set = await connected({ callTimeoutMs: 20_000 }, { callTimeoutMs: 300 });
    // One second: past the set's 300 ms (which would time it out if it won), well inside the entry's 20 s.
    expect(await set.registry.call(SLOW, { duration: 1, steps: 1 })).toMatchObject({ success: true });
  });
});
