import { resolve } from "node:path";
import type { Toolsets } from "@mcp-tool-adapter/registry";
import type { ServerEntry } from "../server-set/server-entry.js";
import { MCPConfigFileError } from "./errors.js";
import type { EnvMap } from "./expand-env.js";
import { normalizeConfigDocument } from "./normalize.js";
import { readToolsets } from "./toolsets.js";
import { detectConfigFormat, type ConfigFileFormat } from "./config-format.js";
import { parseConfigText } from "./parse-text.js";

/** A loaded config: where it came from and its servers by name (declaration order). */
export interface MCPServersConfig {
  file: string;
  format: ConfigFileFormat;
  servers: Record<string, ServerEntry>;
  /**
   * The file's named subsets of tools (`"toolsets": { "research": ["github/search_*", "!github/delete_*"] }`),
   * when it has any: give one to the bridges' `toolset` option or the CLI's `tools --toolset`.
   */
  toolsets?: Toolsets;
}

export interface ParseConfigOptions {
  /** Names the source in error messages (a path, or e.g. "<inline>"). */
  file: string;
  /** Default: from the file name's extension (`.yaml` / `.yml` are YAML, the rest JSON with comments). */
  format?: ConfigFileFormat;
  /** Where `${VAR}` references are looked up. Default: process.env. */
  env?: EnvMap;
  /** Keep only these servers; the others are not expanded or checked. */
  servers?: readonly string[];
}

export interface LoadConfigFileOptions extends Omit<ParseConfigOptions, "file"> {
  /** Base for a relative path. Default: process.cwd(). */
  cwd?: string;
  /** How the file is read (UTF-8 text). Default: node:fs/promises readFile. */
  readFile?: (path: string) => Promise<string>;
}

/** Parses config text (JSON, JSONC or YAML) into server entries; throws MCPConfigFileError. */
export function parseConfig(text: string, options: ParseConfigOptions): MCPServersConfig {
  const format = options.format ?? detectConfigFormat(options.file);
  const document = parseConfigText(text, format, options.file);
  const servers = normalizeConfigDocument(document, {
    file: options.file,
    env: options.env ?? process.env,
    ...(options.servers === undefined ? {} : { servers: options.servers }),
  });
  const toolsets = readToolsets(document, options.file);
  return toolsets === undefined
    ? { file: options.file, format, servers }
    : { file: options.file, format, servers, toolsets };
}

/**
 * Reads an `mcpServers` config file as Claude Desktop, Cursor or VS Code write it (or the same
 * in YAML) and returns its server entries; throws MCPConfigFileError naming the file, and the
 * server and field when one is at fault.
 */
export async function loadConfigFile(path: string, options: LoadConfigFileOptions = {}): Promise<MCPServersConfig> {
  const file = resolve(options.cwd ?? process.cwd(), path);
  // node:fs/promises loads here, not with the module: the CLI reads its config synchronously.
  const read =
    options.readFile ?? (async (target: string) => (await import("node:fs/promises")).readFile(target, "utf8"));
  let text: string;
  try {
    text = await read(file);
  } catch (error) {
    throw readError(file, error);
  }
  const { cwd: _cwd, readFile: _readFile, ...parseOptions } = options;
  return parseConfig(text, { ...parseOptions, file });
}

function readError(file: string, error: unknown): MCPConfigFileError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") {
    return new MCPConfigFileError(
      "CONFIG_FILE_NOT_FOUND",
      `Config file not found: ${file}. Check the path, or create the file with an "mcpServers" object.`,
      {
        file,
        cause: error,
      },
    );
  }
  const reason =
    code === "EISDIR"
      ? "it is a directory"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : (error as Error).message;
  return new MCPConfigFileError(
    "CONFIG_FILE_UNREADABLE",
    `Cannot read config file ${file}: ${reason}. Point to a readable JSON or YAML file.`,
    {
      file,
      cause: error,
    },
  );
}
