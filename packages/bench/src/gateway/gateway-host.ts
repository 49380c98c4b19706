import { createGateway, listenHttp, serveStdio } from "@mcp-tool-adapter/gateway";
import type { ServerEntries } from "mcp-tool-adapter";

/**
 * The gateway the bench measures, in its own process: single-server mode in front of one
 * server-everything. `stdio`: the MCP channel is this process's stdin/stdout (as a host starts
 * `mcp-tool-adapter serve`). `http`: prints its URL on stdout and serves until SIGTERM.
 */
interface HostConfig {
  readonly downstream: "stdio" | "http";
  readonly servers: ServerEntries;
}

const config = JSON.parse(process.argv[2] ?? "{}") as HostConfig;
const gateway = createGateway({ servers: config.servers });
await gateway.start();
if (config.downstream === "stdio") {
  const served = await serveStdio(gateway);
  await served.closed;
  await gateway.close();
} else {
  const http = await listenHttp(gateway);
  process.stdout.write(`${http.url}\n`);
  process.once("SIGTERM", () => {
    void http
      .close()
      .then(() => gateway.close())
      .finally(() => process.exit(0));
  });
}
