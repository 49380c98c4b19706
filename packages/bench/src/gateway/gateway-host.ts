import { createGateway, listenHttp, serveStdio } from "@mcp-tool-adapter/gateway";
import type { ServerEntries } from "mcp-tool-adapter";
import { startCpuReport } from "./cpu-report.js";

/**
 * The gateway the bench measures, in its own process: single-server mode in front of one
 * server-everything. `stdio`: the MCP channel is this process's stdin/stdout (as a host starts
 * `mcp-tool-adapter serve`). `http`: prints its URL on stdout and serves until SIGTERM. With
 * `cpuReportPath`, the CPU time it spent serving (after its upstream connected, before it closes)
 * is written there as a CpuReport (split by the call worker's phase signals) when its client leaves (stdio) or at SIGTERM (HTTP).
 */
interface HostConfig {
  readonly downstream: "stdio" | "http";
  readonly servers: ServerEntries;
  readonly cpuReportPath?: string;
}

const config = JSON.parse(process.argv[2] ?? "{}") as HostConfig;
const gateway = createGateway({ servers: config.servers });
await gateway.start();
const cpu = startCpuReport(config.cpuReportPath);
if (config.downstream === "stdio") {
  const served = await serveStdio(gateway);
  await served.closed;
  cpu.write();
  await gateway.close();
} else {
  const http = await listenHttp(gateway);
  process.stdout.write(`${http.url}\n`);
  process.once("SIGTERM", () => {
    cpu.write();
    void http
      .close()
      .then(() => gateway.close())
      .finally(() => process.exit(0));
  });
}
