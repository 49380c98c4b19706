import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { ConfigFileFormat } from "./config-format.js";
import { MCPConfigFileError } from "./errors.js";
import { JsoncSyntaxError, lineColumnAt, parseJsonc } from "./parse-jsonc.js";

/** Parses config text; a syntax error becomes MCPConfigFileError CONFIG_FILE_SYNTAX with line and column. */
export function parseConfigText(text: string, format: ConfigFileFormat, file: string): unknown {
  return format === "yaml" ? parseYaml(text, file) : parseJson(text, file);
}

function parseJson(text: string, file: string): unknown {
  try {
    return parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw syntaxError(file, "JSON", error.message, lineColumnAt(text, error.offset), error);
  }
}

/**
 * The YAML library is about 230 CommonJS modules (70 ms of CPU to load on a loaded 2-core
 * machine, most of what `call` loaded after spawning its server): only a YAML config loads it.
 * Being CommonJS, it can be required on first use, which keeps parseConfig synchronous.
 */
const requireFromHere = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;

function parseYaml(text: string, file: string): unknown {
  yaml ??= requireFromHere("yaml") as typeof Yaml;
  const document = yaml.parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const [first] = document.errors;
  if (first !== undefined) {
    // The library's message ends with its own location; we report ours in a fixed shape.
    const message = first.message.split(" at line ")[0] ?? first.message;
    throw syntaxError(file, "YAML", message, lineColumnAt(text, first.pos[0]), first);
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // Unresolved or exploding aliases surface only when the document is turned into values.
    throw new MCPConfigFileError(
      "CONFIG_FILE_SYNTAX",
      `Invalid YAML in config file ${file}: ${(error as Error).message}. Fix the file and try again.`,
      {
        file,
        cause: error,
      },
    );
  }
}

function syntaxError(
  file: string,
  language: string,
  message: string,
  at: { line: number; column: number },
  cause: unknown,
): MCPConfigFileError {
  return new MCPConfigFileError(
    "CONFIG_FILE_SYNTAX",
    `Invalid ${language} in config file ${file} at line ${at.line}, column ${at.column}: ${message}. Fix the file and try again.`,
    { file, line: at.line, column: at.column, cause },
  );
}
