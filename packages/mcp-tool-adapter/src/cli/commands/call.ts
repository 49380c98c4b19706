import type { MCPToolResult } from "@mcp-tool-adapter/adapter";
import type { ServerEntry } from "../../server-set/server-entry.js";
import type { EarlyServer } from "../early-server.js";
import { formatMs } from "../format.js";
import type { CliContext } from "../io.js";
import { loadSelectedConfig, type ServerSelection } from "../select-config.js";
import { readToolArguments } from "../tool-arguments.js";
import { CliUsageError } from "../usage-error.js";

export interface CallCommandOptions extends Omit<ServerSelection, "servers"> {
  /** "server/tool" */
  target: string;
  /** Arguments as a JSON object. */
  args?: string;
  /** A file holding the arguments as a JSON object. */
  argsFile?: string;
  /** Deadline of the call in ms. */
  timeoutMs?: number;
  /** Call a tool that may write without asking. */
  yes?: boolean;
}

/** What `call --json` prints. */
export interface CallOutput {
  tool: string;
  success: boolean;
  durationMs: number;
  errorKind?: string;
  error?: string;
  content: unknown[];
  structuredContent?: unknown;
}

/** Base64 payloads longer than this are abbreviated in human output (--json keeps them whole). */
const MAX_INLINE_DATA = 120;

/** `call server/tool`: a validated call through the adapter. Exit 0 on success, 1 on any failure. */
export async function runCallCommand(context: CliContext, options: CallCommandOptions): Promise<number> {
  const { server, tool } = parseTarget(options.target);
  const args = readToolArguments(context.cwd, options);
  const selection = { ...options, servers: [server] };
  // Read the config, start the server, then load the adapter and the rest while it starts up.
  const config = await loadSelectedConfig(context, selection);
  const entry = config.servers[server];
  const early =
    entry !== undefined && startsEarly(context, entry) ? await earlyServer(context, server, entry) : undefined;
  const { connectSelectedServers } = await import("../connect-servers.js");
  const { set, report } = await connectSelectedServers(context, selection, config, early);
  try {
    const connected = report.servers[0];
    const adapter = set.getAdapter(server);
    if (connected?.status !== "connected" || adapter === undefined) {
      const error = connected?.error;
      return fail(context, options, {
        tool: options.target,
        success: false,
        durationMs: connected?.durationMs ?? 0,
        errorKind: "connection_failed",
        error: error === undefined ? `server "${server}" did not connect` : `${error.kind}: ${error.message}`,
        content: [],
      });
    }
    const registered = set.registry.get(`${server}/${tool}`);
    if (registered === undefined) {
      return fail(context, options, {
        tool: options.target,
        success: false,
        durationMs: 0,
        errorKind: "not_found",
        error: notFoundMessage(
          server,
          tool,
          adapter.discoveredTools.map((t) => t.name),
          set.registry.list({ namespace: server }).map((t) => t.localName),
        ),
        content: [],
      });
    }
    const refusal =
      options.yes === true
        ? undefined
        : await (await import("../approve-call.js")).refuseUnapprovedCall(context, options.target, registered, args);
    if (refusal !== undefined) {
      return fail(context, options, {
        tool: options.target,
        success: false,
        durationMs: 0,
        errorKind: "refused",
        error: refusal,
        content: [],
      });
    }
    const mcpName =
      typeof registered.sourceMetadata.originalName === "string"
        ? registered.sourceMetadata.originalName
        : registered.localName;
    const result = await adapter.invoke(
      mcpName,
      args,
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
    const output = toOutput(options.target, result);
    if (!result.success) return fail(context, options, output);
    if (options.json) {
      context.out(JSON.stringify(output, null, 2));
    } else {
      printContent(context, output, "out");
      context.err(`${context.colors.green("✔")} ${options.target} succeeded in ${formatMs(result.durationMs)}`);
    }
    return 0;
  } finally {
    await set.close();
  }
}

/**
 * Whether the server can be spawned before the adapter loads: a stdio entry the default engine
 * speaks to through the default transport (engine-2026 and an adapter factory of the IO's own
 * build their transports themselves).
 */
function startsEarly(context: CliContext, entry: ServerEntry): boolean {
  return (
    entry.transport === "stdio" &&
    entry.protocol !== "2026-07-28" &&
    context.engine === undefined &&
    context.adapterFactory === undefined
  );
}

/**
 * The process the bin's fast path spawned for this entry, or a fresh early spawn; a fast-path
 * process that is not this entry's (a different spawn once the whole config is read) is stopped first.
 */
async function earlyServer(context: CliContext, server: string, entry: ServerEntry): Promise<EarlyServer | undefined> {
  const taken = context.prestarted?.take(server, entry);
  if (taken !== undefined) return taken;
  await context.prestarted?.release();
  return (await import("../early-server.js")).startServerEarly(server, entry);
}

function parseTarget(target: string): { server: string; tool: string } {
  const slash = target.indexOf("/");
  const server = slash === -1 ? "" : target.slice(0, slash);
  const tool = slash === -1 ? "" : target.slice(slash + 1);
  if (server === "" || tool === "") {
    throw new CliUsageError(
      `"${target}" is not a tool name: write it as <server>/<tool>, e.g. memory/read_graph. List them with "mcp-tool-adapter tools".`,
    );
  }
  return { server, tool };
}

function notFoundMessage(server: string, tool: string, discovered: string[], registered: string[]): string {
  if (discovered.includes(tool))
    return `tool "${tool}" of server "${server}" is excluded by the config's tools filter (tools.include / tools.exclude)`;
  const available = registered.length === 0 ? "it has none registered" : `available: ${registered.join(", ")}`;
  return `tool "${tool}" not found on server "${server}"; ${available}`;
}

function toOutput(tool: string, result: MCPToolResult): CallOutput {
  return {
    tool,
    success: result.success,
    durationMs: Math.round(result.durationMs * 100) / 100,
    ...(result.errorKind === undefined ? {} : { errorKind: result.errorKind }),
    ...(result.error === null ? {} : { error: result.error }),
    content: result.data?.content ?? [],
    ...(result.data?.structuredContent === undefined ? {} : { structuredContent: result.data.structuredContent }),
  };
}

function fail(context: CliContext, options: { json: boolean }, output: CallOutput): number {
  if (options.json) {
    context.out(JSON.stringify(output, null, 2));
    return 1;
  }
  printContent(context, output, "err");
  const after = output.durationMs > 0 ? ` after ${formatMs(output.durationMs)}` : "";
  context.err(
    `${context.colors.red("✖")} ${output.tool} failed (${output.errorKind ?? "error"})${after}: ${output.error ?? ""}`,
  );
  return 1;
}

/** Text items as text, everything else as JSON (long base64 payloads abbreviated). */
function printContent(context: CliContext, output: CallOutput, stream: "out" | "err"): void {
  const write = (line: string) => (stream === "out" ? context.out(line) : context.err(line));
  for (const item of output.content) {
    if (isTextItem(item)) write(item.text);
    else write(JSON.stringify(abbreviateData(item), null, 2));
  }
  if (output.content.length === 0 && output.structuredContent !== undefined)
    write(JSON.stringify(output.structuredContent, null, 2));
}

function isTextItem(item: unknown): item is { type: "text"; text: string } {
  return (
    typeof item === "object" &&
    item !== null &&
    (item as { type?: unknown }).type === "text" &&
    typeof (item as { text?: unknown }).text === "string"
  );
}

function abbreviateData(item: unknown): unknown {
  if (typeof item !== "object" || item === null) return item;
  const data = (item as { data?: unknown }).data;
  if (typeof data !== "string" || data.length <= MAX_INLINE_DATA) return item;
  return { ...item, data: `<${data.length} characters of base64, shown in full with --json>` };
}
