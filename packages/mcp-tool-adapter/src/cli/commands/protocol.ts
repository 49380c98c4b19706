import type { MCPPrompt, MCPRequestResult, MCPResource, MCPResourceTemplate } from "@mcp-tool-adapter/adapter";
import { connectSelectedServers, type ServerSelection } from "../connect-servers.js";
import { formatTable, oneLine } from "../format.js";
import type { CliContext } from "../io.js";
import { CliUsageError } from "../usage-error.js";
import type { MCPServerSet } from "../../server-set.js";
import type { ServerSetAdapter } from "../../server-set/types.js";

/** `resources`: every server's resources and resource templates. Exit 1 when a server failed or its listing did. */
export async function runResourcesCommand(context: CliContext, options: ServerSelection): Promise<number> {
  return withServers(context, options, async (set, connected) => {
    const rows: { server: string; resources: MCPResource[]; templates: MCPResourceTemplate[]; error?: string }[] = [];
    for (const name of connected) {
      const adapter = set.getAdapter(name);
      try {
        rows.push({
          server: name,
          resources: (await adapter?.listResources?.()) ?? [],
          templates: (await adapter?.listResourceTemplates?.()) ?? [],
        });
      } catch (error) {
        rows.push({ server: name, resources: [], templates: [], error: (error as Error).message });
      }
    }
    if (options.json) {
      context.out(JSON.stringify({ servers: rows }, null, 2));
    } else {
      const table = rows.flatMap((row) => [
        ...row.resources.map((r) => [row.server, r.uri, r.mimeType ?? "", oneLine(r.description ?? r.name)]),
        ...row.templates.map((t) => [
          row.server,
          t.uriTemplate,
          t.mimeType ?? "",
          oneLine(`(template) ${t.description ?? t.name}`),
        ]),
      ]);
      printTable(context, ["server", "uri", "type", "description"], table);
      for (const row of rows)
        if (row.error !== undefined) context.err(context.colors.red(`${row.server}: ${row.error}`));
    }
    return rows.every((row) => row.error === undefined);
  });
}

/** `prompts`: every server's prompts with their arguments. */
export async function runPromptsCommand(context: CliContext, options: ServerSelection): Promise<number> {
  return withServers(context, options, async (set, connected) => {
    const rows: { server: string; prompts: MCPPrompt[]; error?: string }[] = [];
    for (const name of connected) {
      try {
        rows.push({ server: name, prompts: (await set.getAdapter(name)?.listPrompts?.()) ?? [] });
      } catch (error) {
        rows.push({ server: name, prompts: [], error: (error as Error).message });
      }
    }
    if (options.json) {
      context.out(JSON.stringify({ servers: rows }, null, 2));
    } else {
      const table = rows.flatMap((row) =>
        row.prompts.map((p) => [
          `${row.server}/${p.name}`,
          (p.arguments ?? []).map((a) => (a.required === true ? a.name : `[${a.name}]`)).join(" "),
          oneLine(p.description ?? ""),
        ]),
      );
      printTable(context, ["prompt", "arguments", "description"], table);
      for (const row of rows)
        if (row.error !== undefined) context.err(context.colors.red(`${row.server}: ${row.error}`));
    }
    return rows.every((row) => row.error === undefined);
  });
}

/** `read <server> <uri>`: a resource's text (blobs as base64 with --json, summarised otherwise). */
export async function runReadCommand(
  context: CliContext,
  options: Omit<ServerSelection, "servers"> & { server: string; uri: string },
): Promise<number> {
  return withServers(context, { ...options, servers: [options.server] }, async (set) => {
    const result = await requireAdapter(set, options.server).readResource(options.uri);
    if (!result.success) return printFailure(context, options.json, result);
    if (options.json) {
      context.out(JSON.stringify(result.data, null, 2));
      return true;
    }
    for (const item of result.data.contents) {
      if ("text" in item) context.out(item.text);
      else
        context.out(
          `<blob ${item.uri}: ${Buffer.byteLength(item.blob, "base64")} bytes${item.mimeType === undefined ? "" : ` of ${item.mimeType}`}; use --json for the base64>`,
        );
    }
    return true;
  });
}

/** `prompt <server>/<name> --arg k=v`: a prompt's messages, arguments checked against its declared ones. */
export async function runPromptCommand(
  context: CliContext,
  options: Omit<ServerSelection, "servers"> & { target: string; args: readonly string[] },
): Promise<number> {
  const slash = options.target.indexOf("/");
  const server = slash <= 0 ? "" : options.target.slice(0, slash);
  const name = slash <= 0 ? "" : options.target.slice(slash + 1);
  if (server === "" || name === "")
    throw new CliUsageError(
      `"${options.target}" is not a prompt: write it as <server>/<prompt>. List them with "mcp-tool-adapter prompts".`,
    );
  const args = Object.fromEntries(
    options.args.map((pair) => {
      const equals = pair.indexOf("=");
      if (equals <= 0) throw new CliUsageError(`--arg "${pair}" is not key=value, e.g. --arg city=Lyon.`);
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
  return withServers(context, { ...options, servers: [server] }, async (set) => {
    const result = await requireAdapter(set, server).getPrompt(name, args);
    if (!result.success) return printFailure(context, options.json, result);
    if (options.json) {
      context.out(JSON.stringify(result.data, null, 2));
      return true;
    }
    for (const message of result.data.messages) {
      const content = message.content as { type: string; text?: string };
      context.out(
        `${context.colors.bold(message.role)}: ${content.type === "text" ? (content.text ?? "") : `<${content.type}>`}`,
      );
    }
    return true;
  });
}

async function withServers(
  context: CliContext,
  options: ServerSelection,
  run: (set: MCPServerSet, connected: string[]) => Promise<boolean>,
): Promise<number> {
  const { set, report } = await connectSelectedServers(context, options);
  try {
    for (const server of report.servers) {
      if (server.status === "failed")
        context.err(
          context.colors.red(`${server.name}: ${server.error?.kind ?? "failed"}: ${server.error?.message ?? ""}`),
        );
    }
    const ok = await run(set, report.connected);
    return ok && report.ok ? 0 : 1;
  } finally {
    await set.close();
  }
}

/** The connected adapter of `server` with the methods these commands call (every MCPToolAdapter has them). */
function requireAdapter(
  set: MCPServerSet,
  server: string,
): Required<Pick<ServerSetAdapter, "readResource" | "getPrompt">> {
  const adapter = set.getAdapter(server);
  const { readResource, getPrompt } = adapter ?? {};
  if (adapter?.isConnected !== true || readResource === undefined || getPrompt === undefined)
    throw new Error(`server "${server}" did not connect`);
  return { readResource: readResource.bind(adapter), getPrompt: getPrompt.bind(adapter) };
}

function printFailure(
  context: CliContext,
  json: boolean,
  result: MCPRequestResult<unknown> & { success: false },
): false {
  if (json) context.out(JSON.stringify({ success: false, errorKind: result.errorKind, error: result.error }, null, 2));
  else context.err(context.colors.red(`${result.errorKind}: ${result.error}`));
  return false;
}

function printTable(context: CliContext, header: string[], body: string[][]): void {
  for (const line of formatTable(
    [header.map((cell) => context.colors.bold(cell)), ...body],
    context.isTTY ? context.columns : undefined,
  ))
    context.out(line);
}
