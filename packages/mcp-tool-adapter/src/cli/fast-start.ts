import { readFileSync } from "node:fs";
import { detectConfigFormat } from "../config-file/config-format.js";
import { TRANSPORT_FIELDS } from "../config-file/entry-options-schema.generated.js";
import { expandEnvInValue, type EnvMap } from "../config-file/expand-env.js";
import { selectConfigSource } from "./config-source.js";
import type { PrestartedServer, StdioSpawnConfig } from "./early-server.js";
import { scanCallArgv } from "./fast-call-argv.js";
import { readToolArguments } from "./tool-arguments.js";

/** The keys an entry may have for the fast path to spawn it: the stdio transport's fields and its name. */
const FAST_ENTRY_KEYS: ReadonlySet<string> = new Set([...TRANSPORT_FIELDS.stdio, "type", "transport"]);

/**
 * The bin's fast path: for a `call` of a stdio server, spawns the server before commander, the
 * adapter or the SDK are loaded, from node builtins, this light module and the stdio transport.
 * It understands a plain command line and a plain entry (command, args, env, cwd, inheritEnv, a
 * stdio `type`), in a JSON (or JSONC) config; for anything else it answers undefined having
 * spawned nothing, and the normal path does what it always did. The normal path still reads and
 * checks the whole config and takes the process over only when its entry spawns the same thing.
 */
export async function prestartCallServer(
  argv: readonly string[],
  where: { cwd: string; env: EnvMap },
): Promise<PrestartedServer | undefined> {
  const call = scanCallArgv(argv);
  if (call === undefined) return undefined;
  try {
    // Arguments `call` would refuse (not a JSON object, an unreadable file) spawn nothing.
    readToolArguments(where.cwd, call.flags);
    const source = selectConfigSource(where, call.flags.config);
    if (detectConfigFormat(source.file) !== "json") return undefined;
    const document = await readJsonDocument(source.file);
    const config = stdioSpawnConfig(serverEntryOf(document, call.server), source.env);
    if (config === undefined) return undefined;
    const { prestartServer } = await import("./early-server.js");
    return prestartServer(call.server, config);
  } catch {
    // Whatever went wrong here, the normal path meets it again and reports it as it always did.
    return undefined;
  }
}

/** Plain JSON.parse first; the JSONC parser (comments, trailing commas) only when that fails. */
async function readJsonDocument(file: string): Promise<unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return (await import("../config-file/parse-jsonc.js")).parseJsonc(text);
    } catch {
      return undefined;
    }
  }
}

function serverEntryOf(document: unknown, server: string): unknown {
  if (!isPlainObject(document)) return undefined;
  const { mcpServers, servers } = document;
  // Both keys is an error the normal path reports.
  if (mcpServers !== undefined && servers !== undefined) return undefined;
  const map = mcpServers ?? servers;
  return isPlainObject(map) && Object.hasOwn(map, server) ? map[server] : undefined;
}

function stdioSpawnConfig(raw: unknown, env: EnvMap): StdioSpawnConfig | undefined {
  if (!isPlainObject(raw) || !Object.keys(raw).every((key) => FAST_ENTRY_KEYS.has(key))) return undefined;
  const expanded = expandEnvInValue(raw, env);
  if (expanded.problems.length > 0 || !isPlainObject(expanded.value)) return undefined;
  const entry = expanded.value;
  if ((entry.type ?? "stdio") !== "stdio" || (entry.transport ?? "stdio") !== "stdio") return undefined;
  const config: Record<string, unknown> = {};
  for (const field of TRANSPORT_FIELDS.stdio) if (entry[field] !== undefined) config[field] = entry[field];
  // The field types are checked by the stdio transport's own rules in prestartServer.
  return config as unknown as StdioSpawnConfig;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
