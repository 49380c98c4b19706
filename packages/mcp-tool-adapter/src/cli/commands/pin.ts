import { describePinChanges, pinTools, type ServerToolPins } from "@mcp-tool-adapter/adapter";
import { readToolLock, writeToolLock } from "../../policy/lock-file.js";
import { connectSelectedServers, lockPath, type ServerSelection } from "../connect-servers.js";
import type { CliContext } from "../io.js";

export type PinCommandOptions = ServerSelection;

/** What `pin --json` prints per server. */
export interface PinServerOutput {
  server: string;
  status: "pinned" | "failed";
  tools: number;
  added: string[];
  removed: string[];
  changed: { tool: string; changes: string[] }[];
  error?: string;
}

/**
 * `pin`: connects (without checking the current lock), fingerprints every tool of every connected
 * server and writes the lock. A server that fails keeps its previous pins; exit 1 then.
 */
export async function runPinCommand(context: CliContext, options: PinCommandOptions): Promise<number> {
  const path = lockPath(context, options);
  const previous = await readToolLock(path);
  const { set, report } = await connectSelectedServers(context, { ...options, ignoreLock: true });
  try {
    const servers: Record<string, ServerToolPins> = { ...previous?.servers };
    const outputs: PinServerOutput[] = [];
    for (const result of report.servers) {
      const adapter = set.getAdapter(result.name);
      if (result.status !== "connected" || adapter === undefined) {
        outputs.push({
          server: result.name,
          status: "failed",
          tools: 0,
          added: [],
          removed: [],
          changed: [],
          error: result.error?.message ?? "did not connect",
        });
        continue;
      }
      const pins = await pinTools(adapter.discoveredTools);
      outputs.push({
        server: result.name,
        status: "pinned",
        tools: Object.keys(pins.tools).length,
        ...diff(servers[result.name], pins),
      });
      servers[result.name] = pins;
    }
    await writeToolLock(path, { lockfileVersion: 1, servers });
    if (options.json) {
      context.out(JSON.stringify({ lock: path, servers: outputs }, null, 2));
    } else {
      for (const output of outputs) printServer(context, output);
      context.err(`Wrote ${path}`);
    }
    return report.ok ? 0 : 1;
  } finally {
    await set.close();
  }
}

function diff(
  before: ServerToolPins | undefined,
  after: ServerToolPins,
): Pick<PinServerOutput, "added" | "removed" | "changed"> {
  const old = before?.tools ?? {};
  const added = Object.keys(after.tools).filter((name) => !Object.hasOwn(old, name));
  const removed = Object.keys(old).filter((name) => !Object.hasOwn(after.tools, name));
  const changed: { tool: string; changes: string[] }[] = [];
  for (const [name, pin] of Object.entries(after.tools)) {
    const was = Object.hasOwn(old, name) ? old[name] : undefined;
    if (was !== undefined && was.fingerprint !== pin.fingerprint)
      changed.push({ tool: name, changes: describePinChanges(was, pin) });
  }
  return before === undefined ? { added: [], removed: [], changed: [] } : { added, removed, changed };
}

function printServer(context: CliContext, output: PinServerOutput): void {
  const { colors } = context;
  if (output.status === "failed") {
    context.err(
      `${colors.red("✖")} ${output.server}: not pinned (${output.error ?? "failed"}); its previous pins are kept`,
    );
    return;
  }
  context.err(`${colors.green("✔")} ${output.server}: ${output.tools} tools pinned`);
  for (const name of output.added) context.err(`  + ${name} (new)`);
  for (const name of output.removed) context.err(`  - ${name} (gone)`);
  for (const { tool, changes } of output.changed) context.err(`  ~ ${tool}: ${changes.join(", ")}`);
}
