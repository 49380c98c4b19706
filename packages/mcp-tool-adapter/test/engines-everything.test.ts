import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, describe, expect, it } from "vitest";
import type { MCPBuiltInEngine } from "@mcp-tool-adapter/adapter";
import { MCPToolAdapter, type MCPProgress } from "../src/index.js";

const adapters: MCPToolAdapter[] = [];

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.disconnect()));
  await expectNoLeakedProcesses();
});

/** Both built-in engines over a real server-everything process: same handshake, calls, progress and errors. */
describe.each<{ engine: MCPBuiltInEngine | undefined }>([{ engine: undefined }, { engine: "sdk-v1" }])(
  "server-everything over stdio on the $engine engine",
  ({ engine }) => {
    it("connects, calls, reports progress, times out a call and stays usable", async () => {
      const adapter = new MCPToolAdapter(
        { name: "everything", transport: "stdio", ...everythingStdioServer() },
        { connectTimeoutMs: 30_000, ...(engine === undefined ? {} : { engine }) },
      );
      adapters.push(adapter);
      await adapter.connect();
      expect(adapter.protocolVersion).toMatch(/^2025-/u);
      expect(adapter.serverInfo?.name).toBeTruthy();
      const echoed = await adapter.invoke("echo", { message: "both engines" });
      expect(echoed).toMatchObject({ success: true });
      expect(JSON.stringify(echoed.data)).toContain("both engines");
      const progress: MCPProgress[] = [];
      const slow = await adapter.invoke(
        "trigger-long-running-operation",
        { duration: 0.2, steps: 2 },
        { onProgress: (report) => progress.push(report), timeoutMs: 20_000 },
      );
      expect(slow.success).toBe(true);
      expect(progress[0]).toMatchObject({ progress: 1, total: 2 });
      const late = await adapter.invoke(
        "trigger-long-running-operation",
        { duration: 30, steps: 3 },
        { timeoutMs: 200 },
      );
      expect(late).toMatchObject({ success: false, errorKind: "timeout" });
      expect((await adapter.invoke("echo", { message: "still here" })).success).toBe(true);
    }, 60_000);
  },
);
