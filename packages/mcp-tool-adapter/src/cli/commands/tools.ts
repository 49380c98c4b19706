import type { CapabilityDecisions } from "@mcp-tool-adapter/capability-inference";
import { RegistryError, selectToolset, type RegisteredTool, type ToolsetMatcher } from "@mcp-tool-adapter/registry";
import type { MCPServersConfig } from "../../config-file/load-config-file.js";
import { connectSelectedServers, loadSelectedConfig, type ServerSelection } from "../connect-servers.js";
import { formatTable, oneLine } from "../format.js";
import type { CliContext } from "../io.js";
import { CliUsageError } from "../usage-error.js";
import { serverSummary } from "./check.js";

export interface ToolsCommandOptions extends ServerSelection {
  /** Only the tools of this toolset of the config's `toolsets`. */
  toolset?: string;
}

/** One row of `tools --json`. */
export interface ToolRow {
  name: string;
  server: string;
  tool: string;
  readOnly: boolean;
  writes: boolean;
  destructive?: boolean;
  decidedBy?: CapabilityDecisions;
  description: string;
}

/** `tools`: connect, discover and list every registered tool with its capabilities. Exit 1 when a server failed. */
export async function runToolsCommand(context: CliContext, options: ToolsCommandOptions): Promise<number> {
  const config = await loadSelectedConfig(context, options);
  // Before connecting: a toolset the file does not define is a usage mistake, found at once.
  const inToolset = options.toolset === undefined ? undefined : toolsetOf(config, options.toolset);
  const { set, report } = await connectSelectedServers(context, options, config);
  try {
    const rows = report.servers.flatMap((server) =>
      set.registry
        .list({ namespace: server.name })
        .filter((tool) => inToolset?.(tool.name) ?? true)
        .map(toRow),
    );
    if (options.json) {
      context.out(
        JSON.stringify({ servers: report.servers.map((server) => serverSummary(server)), tools: rows }, null, 2),
      );
    } else {
      printTable(context, rows);
    }
    return report.ok ? 0 : 1;
  } finally {
    await set.close();
  }
}

/** The matcher of `--toolset <name>`; an unknown name is a usage error naming the known ones. */
export function toolsetOf(config: MCPServersConfig, name: string): ToolsetMatcher {
  try {
    return selectToolset(config.toolsets, name);
  } catch (error) {
    if (RegistryError.isInstance(error))
      throw new CliUsageError(`--toolset: ${error.message} (config ${config.file})`, { cause: error });
    throw error;
  }
}

function toRow(tool: RegisteredTool): ToolRow {
  const decidedBy = tool.sourceMetadata.capabilitiesDecidedBy as CapabilityDecisions | undefined;
  return {
    name: tool.name,
    server: tool.namespace,
    tool: typeof tool.sourceMetadata.originalName === "string" ? tool.sourceMetadata.originalName : tool.localName,
    readOnly: tool.capabilities.readOnly,
    writes: tool.capabilities.writes,
    ...(tool.capabilities.destructive === undefined ? {} : { destructive: tool.capabilities.destructive }),
    ...(decidedBy === undefined ? {} : { decidedBy }),
    description: tool.description,
  };
}

function printTable(context: CliContext, rows: ToolRow[]): void {
  const { colors } = context;
  if (rows.length === 0) {
    context.err("No tools registered.");
    return;
  }
  const header = ["TOOL", "ACCESS", "DECIDED BY", "DESCRIPTION"].map((title) => colors.dim(title));
  const body = rows.map((row) => [
    colors.bold(row.name),
    access(context, row),
    decidedByLabel(row),
    oneLine(row.description),
  ]);
  for (const line of formatTable([header, ...body], context.isTTY ? context.columns : undefined)) context.out(line);
  context.out();
  context.out(
    colors.dim(
      `${rows.length} tool${rows.length === 1 ? "" : "s"}: ${rows.filter((r) => r.readOnly).length} read-only, ${rows.filter((r) => r.writes).length} writing`,
    ),
  );
}

function access(context: CliContext, row: ToolRow): string {
  if (row.readOnly) return context.colors.green("read-only");
  if (row.writes) return context.colors.yellow(row.destructive === true ? "writes (destructive)" : "writes");
  return context.colors.dim("unknown");
}

/** Which source decided the shown capability; "annotation/name" when read-only and writes came from different ones. */
function decidedByLabel(row: ToolRow): string {
  if (row.decidedBy === undefined) return "-";
  const { readOnly, writes } = row.decidedBy;
  if (row.readOnly) return readOnly;
  if (row.writes) return writes;
  return readOnly === writes ? readOnly : `${readOnly}/${writes}`;
}
