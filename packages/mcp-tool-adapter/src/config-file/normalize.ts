import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { MCPRoot } from "@mcp-tool-adapter/adapter";
// The adapter's light config entry: reading a config file does not load the adapter, the SDK or zod.
import { findConfigIssues, type MCPServerConfig } from "@mcp-tool-adapter/adapter/config";
import type { ServerEntry } from "../server-set/server-entry.js";
import { describeIssue, MCPConfigFileError, type ConfigFileIssue } from "./errors.js";
import { expandEnvInValue, joinField, type EnvMap } from "./expand-env.js";
import { CONFIG_FILE_ENTRY_OPTIONS_JSON_SCHEMA, TRANSPORT_FIELDS } from "./entry-options-schema.generated.js";
import { findSchemaIssues } from "./schema-issues.js";
import type { ConfigFileEntryOptions, ServerAuthConfig } from "./schema.js";
import type { ConfigFileTransport } from "./transport-names.js";

export interface NormalizeOptions {
  file: string;
  env: EnvMap;
  /** Keep only these servers (by key); an unknown name is an error listing the known ones. */
  servers?: readonly string[];
}

/**
 * Turns a parsed config document (`{ mcpServers: {...} }` or VS Code's `{ servers: {...} }`) into
 * server entries: disabled entries dropped, `${VAR}` expanded, then each entry validated once:
 * the file-only fields against the file's schema, the transport's fields against the adapter's
 * server config schema (which is the transports' own). Every problem of one kind is reported at once.
 */
export function normalizeConfigDocument(document: unknown, options: NormalizeOptions): Record<string, ServerEntry> {
  const { file } = options;
  const rawEntries = selectServers(findServerMap(document, file), options);

  const notObjects = rawEntries.filter(([, raw]) => !isPlainObject(raw));
  if (notObjects.length > 0)
    throw invalid(
      file,
      notObjects.map(([server]) => ({ server, message: `must be an object with "command" or "url"` })),
    );

  // Before expansion, so a disabled entry's variables need not be set.
  const enabled = (rawEntries as [string, Record<string, unknown>][]).filter(([, raw]) => raw.disabled !== true);

  const envIssues: ConfigFileIssue[] = [];
  const unset = new Set<string>();
  const expanded = enabled.map(([server, raw]): [string, Record<string, unknown>] => {
    const result = expandEnvInValue(raw, options.env);
    for (const problem of result.problems) {
      if (problem.kind === "unset") unset.add(problem.variable);
      envIssues.push({
        server,
        field: problem.field,
        message:
          problem.kind === "unset"
            ? `environment variable "${problem.variable}" is not set`
            : `${problem.variable} is not a valid variable reference (use \${NAME}, \${NAME:-default} or \${env:NAME})`,
      });
    }
    return [server, result.value as Record<string, unknown>];
  });
  if (envIssues.length > 0) {
    const hint =
      unset.size > 0
        ? ` Set ${[...unset].map((name) => `"${name}"`).join(", ")} or give a default with \${NAME:-default}.`
        : "";
    throw new MCPConfigFileError(
      unset.size > 0 ? "CONFIG_ENV_UNSET" : "CONFIG_FILE_INVALID",
      `Config file ${file}: ${envIssues.map(describeIssue).join("; ")}.${hint}`,
      { file, issues: envIssues },
    );
  }

  const entryIssues: ConfigFileIssue[] = [];
  const entries: [string, ServerEntry][] = [];
  for (const [server, raw] of expanded) {
    const result = toServerEntry(server, raw);
    entryIssues.push(...result.issues);
    if (result.entry !== undefined) entries.push([server, result.entry]);
  }
  if (entryIssues.length > 0) throw invalid(file, entryIssues);
  return Object.fromEntries(entries);
}

function findServerMap(document: unknown, file: string): Record<string, unknown> {
  if (!isPlainObject(document)) {
    const got =
      document === null || document === undefined
        ? "an empty document"
        : Array.isArray(document)
          ? "an array"
          : typeof document;
    throw invalid(file, [{ message: `expected an object with "mcpServers" (or VS Code's "servers"), got ${got}` }]);
  }
  const { mcpServers, servers } = document;
  if (mcpServers !== undefined && servers !== undefined) {
    throw invalid(file, [{ field: "servers", message: `has both "mcpServers" and "servers"; keep one of them` }]);
  }
  const key = mcpServers !== undefined ? "mcpServers" : "servers";
  const map = mcpServers ?? servers;
  if (map === undefined) {
    throw invalid(file, [
      { message: `no "mcpServers" (or VS Code's "servers") object found; found keys: ${listKeys(document)}` },
    ]);
  }
  if (!isPlainObject(map)) throw invalid(file, [{ field: key, message: `must be an object of servers by name` }]);
  return map;
}

function selectServers(map: Record<string, unknown>, options: NormalizeOptions): [string, unknown][] {
  const all = Object.entries(map);
  if (options.servers === undefined) return all;
  const unknown = options.servers.filter((name) => !Object.hasOwn(map, name));
  if (unknown.length > 0) {
    throw new MCPConfigFileError(
      "CONFIG_FILE_INVALID",
      `Config file ${options.file} has no server ${unknown.map((n) => `"${n}"`).join(", ")}; it defines ${listKeys(map)}.`,
      { file: options.file, issues: unknown.map((server) => ({ server, message: "no such server in the file" })) },
    );
  }
  return all.filter(([name]) => options.servers?.includes(name));
}

/** The file-only fields (type, transport, tools, connectTimeoutMs, callTimeoutMs, disabled, ...); the transport's fields are the adapter's to check. */
function findOptionIssues(server: string, raw: Record<string, unknown>): ConfigFileIssue[] {
  return findSchemaIssues(CONFIG_FILE_ENTRY_OPTIONS_JSON_SCHEMA, raw).map((issue): ConfigFileIssue => {
    const field = pointerToField(issue.path) || undefined;
    let message = issue.message;
    // type, transport, logLevel: the schema lists the allowed values.
    const allowed = field === undefined ? undefined : CONFIG_FILE_ENTRY_OPTIONS_JSON_SCHEMA.properties?.[field]?.enum;
    if (allowed !== undefined) {
      message = `must be one of ${allowed.map((value) => JSON.stringify(value)).join(", ")}`;
    } else if (issue.unknownFields !== undefined) {
      message = `unknown field ${issue.unknownFields.map((name) => `"${name}"`).join(", ")}`;
    }
    return { server, field, message };
  });
}

function toServerEntry(
  server: string,
  raw: Record<string, unknown>,
): { entry?: ServerEntry; issues: ConfigFileIssue[] } {
  const issues = findOptionIssues(server, raw);
  if (issues.length > 0) return { issues };
  // The file-only fields are valid now; the transport's fields are still unknown values.
  const entryOptions = raw as ConfigFileEntryOptions;
  const transport = resolveTransport(server, { ...entryOptions, command: raw.command, url: raw.url }, issues);
  if (transport === undefined) return { issues };

  const own: readonly string[] = transport === "stdio" ? TRANSPORT_FIELDS.stdio : TRANSPORT_FIELDS.http;
  const foreign: readonly string[] = transport === "stdio" ? TRANSPORT_FIELDS.http : TRANSPORT_FIELDS.stdio;
  for (const field of foreign) {
    if (raw[field] !== undefined) {
      issues.push({ server, field, message: `is not used by the ${transport} transport (it takes ${own.join(", ")})` });
    }
  }

  const config: Record<string, unknown> = { transport };
  for (const field of own) {
    const value = raw[field];
    if (value !== undefined) config[field] = value;
  }
  // The adapter's own field beside the transport's: checked with them just below.
  if (raw.protocol !== undefined) config.protocol = raw.protocol;

  // The one check of the transport's fields: the adapter's rules (types, non-empty command,
  // absolute http(s) url, ...), so a file that loads is one the adapter accepts. Its issues are
  // JSON pointers into the config.
  for (const issue of findConfigIssues({ name: server, ...config })) {
    issues.push({ server, field: pointerToField(issue.path) || undefined, message: issue.message });
  }
  if (issues.length > 0) return { issues };

  const entry = config as Omit<MCPServerConfig, "name"> as ServerEntry;
  if (entryOptions.tools !== undefined) entry.tools = entryOptions.tools;
  if (entryOptions.connectTimeoutMs !== undefined) entry.connectTimeoutMs = entryOptions.connectTimeoutMs;
  if (entryOptions.callTimeoutMs !== undefined) entry.callTimeoutMs = entryOptions.callTimeoutMs;
  if (entryOptions.logLevel !== undefined) entry.logLevel = entryOptions.logLevel;
  if (entryOptions.auth !== undefined) {
    applyAuth(server, entry, entryOptions.auth, issues);
    if (issues.length > 0) return { issues };
  }
  if (entryOptions.recovery !== undefined) entry.recovery = entryOptions.recovery;
  if (entryOptions.roots !== undefined) {
    const roots = toRoots(server, entryOptions.roots, issues);
    if (issues.length > 0) return { issues };
    entry.roots = roots;
  }
  return { entry, issues };
}

/** A root as a path (absolute) or a file:// URI, in the adapter's { uri, name? } form. */
function toRoots(
  server: string,
  roots: NonNullable<ConfigFileEntryOptions["roots"]>,
  issues: ConfigFileIssue[],
): MCPRoot[] {
  return roots.map((root, index) => {
    const given = typeof root === "string" ? root : root.uri;
    const name = typeof root === "string" ? undefined : root.name;
    let uri = given;
    if (!given.startsWith("file://")) {
      if (isAbsolute(given)) uri = pathToFileURL(given).href;
      else
        issues.push({
          server,
          field: `roots[${index}]`,
          message: `"${given}" must be an absolute path or a file:// URI`,
        });
    }
    return name === undefined ? { uri } : { uri, name };
  });
}

/** `bearer` is a header; `oauth` / `client_credentials` go to the entry (HTTP servers only). */
function applyAuth(server: string, entry: ServerEntry, auth: ServerAuthConfig, issues: ConfigFileIssue[]): void {
  if (entry.transport === "stdio") {
    issues.push({
      server,
      field: "auth",
      message: "applies to HTTP servers only; a stdio server gets its credentials through env",
    });
    return;
  }
  if (auth.type === "bearer") {
    const headers = { ...entry.headers };
    if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) {
      issues.push({ server, field: "auth", message: "and headers.Authorization both set a token; keep one" });
      return;
    }
    entry.headers = { ...headers, Authorization: `Bearer ${auth.token}` };
    return;
  }
  if (auth.type === "client_credentials" && (auth.clientSecret === undefined) === (auth.privateKey === undefined)) {
    issues.push({
      server,
      field: "auth",
      message: "client_credentials needs exactly one of clientSecret or privateKey",
    });
    return;
  }
  if (auth.type === "client_credentials" && auth.privateKey !== undefined && auth.algorithm === undefined) {
    issues.push({ server, field: "auth.algorithm", message: 'is required with privateKey (e.g. "RS256" or "ES256")' });
    return;
  }
  entry.auth = auth;
}

function resolveTransport(
  server: string,
  raw: ConfigFileEntryOptions & { command: unknown; url: unknown },
  issues: ConfigFileIssue[],
): MCPServerConfig["transport"] | undefined {
  const fromType = raw.type === undefined ? undefined : canonicalTransport(raw.type);
  const fromTransport = raw.transport === undefined ? undefined : canonicalTransport(raw.transport);
  if (fromType !== undefined && fromTransport !== undefined && fromType !== fromTransport) {
    issues.push({
      server,
      field: "transport",
      message: `says "${String(raw.transport)}" but "type" says "${String(raw.type)}"; keep one`,
    });
    return undefined;
  }
  const declared = fromTransport ?? fromType;
  if (declared !== undefined) return declared;
  if (raw.command !== undefined && raw.url !== undefined) {
    issues.push({
      server,
      field: "command",
      message: `has both "command" and "url"; remove one, or set "type" to "stdio", "http" or "sse"`,
    });
    return undefined;
  }
  if (raw.command !== undefined) return "stdio";
  if (raw.url !== undefined) return isSseUrl(raw.url) ? "sse" : "streamable-http";
  issues.push({
    server,
    message: `needs "command" (a local server started over stdio) or "url" (a remote server over HTTP)`,
  });
  return undefined;
}

function canonicalTransport(name: ConfigFileTransport): MCPServerConfig["transport"] {
  if (name === "http" || name === "streamableHttp") return "streamable-http";
  return name;
}

/** Legacy SSE servers conventionally serve their event stream at `/sse`. */
function isSseUrl(url: unknown): boolean {
  if (typeof url !== "string") return false;
  try {
    return /\/sse\/?$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** "/args/0" -> "args[0]", "/env/API_KEY" -> "env.API_KEY". */
function pointerToField(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((field, segment) => (/^\d+$/.test(segment) ? `${field}[${segment}]` : joinField(field, segment)), "");
}

function invalid(file: string, issues: ConfigFileIssue[]): MCPConfigFileError {
  return new MCPConfigFileError(
    "CONFIG_FILE_INVALID",
    `Invalid config file ${file}: ${issues.map(describeIssue).join("; ")}. Fix the file and try again.`,
    { file, issues },
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function listKeys(object: object): string {
  const keys = Object.keys(object);
  return keys.length === 0 ? "(none)" : keys.map((k) => `"${k}"`).join(", ");
}
