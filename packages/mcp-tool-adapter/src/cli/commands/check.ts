import type { MCPServerHealth } from "@mcp-tool-adapter/adapter";
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
  /** The protocol era it speaks, once connected: "2025" or "2026-07-28". */
  protocolEra?: string;
  handshakeMs?: number;
  durationMs: number;
  toolCount: number;
  error?: { kind: string; code?: string; message: string; stage?: string };
  /** Where the connection stands, and whether recovery is on (docs/recovery.md). */
  health?: { state: string; recovery: boolean; recoveries: number; lastFailure?: string };
}

export function serverSummary(result: ServerConnectResult, health?: MCPServerHealth): ServerSummary {
  return {
    name: result.name,
    status: result.status,
    transport: result.transport,
    ...(result.protocolEra === undefined ? {} : { protocolEra: result.protocolEra }),
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
    ...(health === undefined
      ? {}
      : {
          health: {
            state: health.state,
            recovery: health.recovery,
            recoveries: health.recoveries,
            ...(health.lastFailure === undefined ? {} : { lastFailure: health.lastFailure }),
          },
        }),
  };
}

/** The RECOVERY column: whether it is on, and the state when it is not plainly connected. */
function recoveryCell(health: MCPServerHealth | undefined): string {
  if (health?.recovery !== true) return "off";
  return health.state === "connected" || health.state === "disconnected" ? "on" : `on: ${health.state}`;
}

/** `check`: connect every server and report status, protocol era, handshake time and tool count. Exit 1 when any failed. */
export async function runCheckCommand(context: CliContext, options: CheckCommandOptions): Promise<number> {
  const { set, report } = await connectSelectedServers(context, options);
  try {
    const health = set.health;
    if (options.json) {
      const servers = report.servers.map((server) => serverSummary(server, health[server.name]));
      context.out(JSON.stringify({ ok: report.ok, servers }, null, 2));
    } else {
      const { colors } = context;
      // The column appears only when some server has recovery on, so other configs print as before.
      const showRecovery = Object.values(health).some((server) => server.recovery);
      const titles = ["SERVER", "STATUS", "TRANSPORT", "ERA", "HANDSHAKE", "TOOLS", "ERROR"];
      const header = (showRecovery ? [...titles, "RECOVERY"] : titles).map((title) => colors.dim(title));
      const rows = report.servers.map((server) => [
        colors.bold(server.name),
        server.status === "connected" ? colors.green("ok") : colors.red("failed"),
        server.transport,
        server.protocolEra ?? "-",
        formatMs(server.handshakeMs),
        server.status === "connected" ? String(server.tools.length) : "-",
        server.error === undefined ? "" : `${server.error.kind}: ${server.error.message}`,
        ...(showRecovery ? [recoveryCell(health[server.name])] : []),
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
