import type { Ora } from "ora";
import type { ServerConnectResult } from "../server-set/types.js";
import { formatMs } from "./format.js";
import type { CliContext } from "./io.js";

/** Shows servers connecting: an ora spinner on a terminal, one plain line per server when piped, nothing for --json. */
export interface ConnectProgress {
  serverDone(result: ServerConnectResult): void;
  stop(): void;
}

export async function startConnectProgress(
  context: CliContext,
  serverNames: readonly string[],
  mode: { json: boolean },
): Promise<ConnectProgress> {
  if (mode.json) return { serverDone: () => undefined, stop: () => undefined };
  const total = serverNames.length;
  let done = 0;
  const label = () =>
    `Connecting to ${total} MCP server${total === 1 ? "" : "s"} (${done}/${total} done): ${serverNames.join(", ")}`;
  const spinner = context.isTTY && context.stderr.isTTY === true ? await createSpinner(context, label()) : undefined;
  return {
    serverDone(result) {
      done += 1;
      const line = describeConnect(context, result);
      if (spinner === undefined) {
        context.err(line);
        return;
      }
      spinner.clear();
      context.err(line);
      spinner.text = label();
      spinner.render();
    },
    stop() {
      spinner?.stop();
    },
  };
}

/** ora is loaded only when a terminal will show it, so importing the library never pulls it in. */
async function createSpinner(context: CliContext, text: string): Promise<Ora> {
  const { default: ora } = await import("ora");
  return ora({ text, stream: context.stderr as NodeJS.WritableStream, isEnabled: true, discardStdin: false }).start();
}

/** "✔ memory  stdio  182 ms  9 tools" or "✖ down  stdio  spawn_failed: ..." */
export function describeConnect(context: CliContext, result: ServerConnectResult): string {
  const { colors } = context;
  if (result.status === "connected") {
    const tools = `${result.tools.length} tool${result.tools.length === 1 ? "" : "s"}`;
    return `${colors.green("✔")} ${colors.bold(result.name)} connected over ${result.transport} in ${formatMs(result.handshakeMs)}, ${tools}`;
  }
  return `${colors.red("✖")} ${colors.bold(result.name)} failed (${result.error?.kind ?? "unknown"}) after ${formatMs(result.durationMs)}: ${result.error?.message ?? ""}`;
}
