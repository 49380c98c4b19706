import type { LoadConfigFileOptions, MCPServersConfig, ParseConfigOptions } from "./load-config-file.js";

// The public face of the config-file code. The code itself (the YAML and JSONC parsers, the
// TypeBox schema of an entry) is loaded on the first call, so importing the library, which most
// programs do without ever reading a config file, does not pay for it.

/**
 * Reads an `mcpServers` config file as Claude Desktop, Cursor or VS Code write it (or the same
 * in YAML) and returns its server entries; rejects with MCPConfigFileError naming the file, and
 * the server and field when one is at fault.
 */
export async function loadConfigFile(path: string, options: LoadConfigFileOptions = {}): Promise<MCPServersConfig> {
  const { loadConfigFile: load } = await import("./load-config-file.js");
  return load(path, options);
}

/** Parses config text (JSON, JSONC or YAML) into server entries; rejects with MCPConfigFileError. */
export async function parseConfig(text: string, options: ParseConfigOptions): Promise<MCPServersConfig> {
  const { parseConfig: parse } = await import("./load-config-file.js");
  return parse(text, options);
}
