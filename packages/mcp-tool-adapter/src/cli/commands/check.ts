import { connectSelectedServers, type ServerSelection } from "../connect-servers.js";
import { formatMs, formatTable } from "../format.js";
import type { CliContext } from "../io.js";
import type { ServerConnectResult } from "../../server-set/types.js";

export type CheckCommandOptions = ServerSelection;

/** What `check --json` and `tools --json` report per server. */
export interface ServerSummary {
  name: string;
  status: "connected" | "failed";
  transport: string;
  handshakeMs?: number;
  durationMs: number;
  toolCount: number;
  error?: { kind: string; code?: string; message: string; stage?: string };
}

export function serverSummary(result: ServerConnectResult): ServerSummary {
  return {
    name: result.name,
    status: result.status,
    transport: result.transport,
    ...(result.handshakeMs === undefined ? {} : { handshakeMs: Math.round(result.handshakeMs) }),
    durationMs: Math.round(result.durationMs),
    toolCount: result.tools.length,
    ...(result.error === undefined
      ? {}
      : {
          error: {
            kind: result.error.kind,
            ...(result.error.code === undefined ? {} : { code: result.error.code }),
            message: result.error.message,
            ...(result.stage === undefined ? {} : { stage: result.stage }),
          },
        }),
  };
}

/** `check`: connect every server and report status, handshake time and tool count. Exit 1 when any failed. */
export async function runCheckCommand(context: CliContext, options: CheckCommandOptions): Promise<number> {
  const { set, report } = await connectSelectedServers(context, options);
  try {
    if (options.json) {
      context.out(JSON.stringify({ ok: report.ok, servers: report.servers.map(serverSummary) }, null, 2));
    } else {
      const { colors } = context;
      const header = ["SERVER", "STATUS", "TRANSPORT", "HANDSHAKE", "TOOLS", "ERROR"].map((title) => colors.dim(title));
      const rows = report.servers.map((server) => [
        colors.bold(server.name),
        server.status === "connected" ? colors.green("ok") : colors.red("failed"),
        server.transport,
        formatMs(server.handshakeMs),
        server.status === "connected" ? String(server.tools.length) : "-",
        server.error === undefined ? "" : `${server.error.kind}: ${server.error.message}`,
      ]);
      for (const line of formatTable([header, ...rows], context.isTTY ? context.columns : undefined)) context.out(line);
      context.out();
      const summary = `${report.connected.length}/${report.servers.length} servers connected, ${report.toolCount} tools`;
      context.out(report.ok ? colors.green(summary) : colors.red(summary));
    }
    return report.ok ? 0 : 1;
  } finally {
    await set.close();
  }
}
