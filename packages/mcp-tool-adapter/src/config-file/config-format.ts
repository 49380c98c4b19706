import { extname } from "node:path";

export type ConfigFileFormat = "json" | "yaml";

/** `.yaml` / `.yml` are YAML; everything else (`.json`, `.jsonc`, no extension) is JSON with comments. */
export function detectConfigFormat(file: string): ConfigFileFormat {
  const extension = extname(file).toLowerCase();
  return extension === ".yaml" || extension === ".yml" ? "yaml" : "json";
}
