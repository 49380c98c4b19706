import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { MCPEngine, MCPServerConfig } from "@mcp-tool-adapter/adapter";
import type { ServerEntries, ServerEntry } from "../server-set/server-entry.js";
import type { ServerSetEngineChoice } from "../server-set/types.js";

/** The optional package that speaks protocol revision 2026-07-28. */
export const ENGINE_2026_PACKAGE = "@mcp-tool-adapter/engine-2026";

/** Makes the 2026 engine; what the CLI needs of `@mcp-tool-adapter/engine-2026`. */
export type Engine2026Factory = () => MCPEngine;

/**
 * Finds `@mcp-tool-adapter/engine-2026` and loads it, or resolves undefined when it is not
 * installed. `cwd` is the user's project: a copy installed there wins over one beside the CLI.
 */
export type Engine2026Loader = (cwd: string) => Promise<Engine2026Factory | undefined>;

/** What the CLI tells a user who must log in first. */
export interface EngineChoiceAuth {
  /** What an AUTH_REQUIRED message tells the user to do for this server. */
  loginHint(serverName: string): string;
}

/**
 * Whether an entry goes through engine-2026: when it asks for 2026-07-28, and `auto` entries over
 * streamable HTTP (the only transport where `auto` probes). engine-2026 carries the same OAuth as
 * the default engine (an `auth` entry or a stored login). Every other entry stays on the default
 * engine.
 */
function wantsEngine2026(entry: ServerEntry): boolean {
  const protocol = entry.protocol ?? "auto";
  return protocol === "2026-07-28" || (protocol === "auto" && entry.transport === "streamable-http");
}

/**
 * The engine choice for a set of config entries: undefined (the default engine for all) when no
 * entry wants engine-2026 or it is not installed. The package is only looked for when an entry
 * wants it, so a config without such entries starts as fast as before.
 */
export async function chooseEngines(
  servers: ServerEntries,
  cwd: string,
  load: Engine2026Loader,
  auth: EngineChoiceAuth,
): Promise<ServerSetEngineChoice | undefined> {
  const chosen = new Set(
    Object.entries(servers)
      .filter(([, entry]) => wantsEngine2026(entry))
      .map(([name]) => name),
  );
  if (chosen.size === 0) return undefined;
  const create = await load(cwd);
  if (create === undefined) return undefined;
  // One engine for the run: it remembers which era each server spoke.
  const engine = create();
  return (config, { serverName }) =>
    chosen.has(serverName) ? withLoginHint(engine, config, auth.loginHint(serverName)) : undefined;
}

/**
 * The engine for one `auto` entry: a 401 that no OAuth provider answered becomes the AUTH_REQUIRED
 * error the default engine reports for such an entry, naming the login command.
 */
function withLoginHint(engine: MCPEngine, config: MCPServerConfig, hint: string): MCPEngine {
  if (config.transport !== "streamable-http" || (config.protocol ?? "auto") !== "auto") return engine;
  return {
    name: engine.name,
    protocols: engine.protocols,
    connect: (request) =>
      engine.connect(request).catch(async (error: unknown) => {
        if (!answered401(error)) throw error;
        // Loaded on the rare 401 only: a run whose servers answer never loads the OAuth code.
        const { MCPAuthError } = await import("@mcp-tool-adapter/oauth");
        // No cause: the server set reports the deepest code of the chain, and this is the one that says what to do.
        throw new MCPAuthError(
          "AUTH_REQUIRED",
          `${config.url} answered 401 Unauthorized and no login is stored for it. If it uses OAuth, ${hint}; ` +
            "if it takes an API key or token, set it in the server's config (headers.Authorization).",
        );
      }),
  };
}

/** A 401 anywhere in the cause chain: engine-2026's HTTP_ERROR status, or the SDK's authentication failure. */
function answered401(error: unknown): boolean {
  for (let link = error; link instanceof Error; link = link.cause) {
    const { status, code, data } = link as { status?: unknown; code?: unknown; data?: { status?: unknown } };
    if (status === 401 || data?.status === 401 || code === "CLIENT_HTTP_AUTHENTICATION") return true;
  }
  return false;
}

/**
 * The default loader, by dynamic import: the copy in the user's project (`cwd`) first, then the one
 * beside the CLI (a global install, or the project that installed the CLI). Resolves undefined
 * when neither exists; a copy that exists but fails to load is an error.
 */
export const loadInstalledEngine2026: Engine2026Loader = async (cwd) => {
  const inProject = resolveFrom(join(cwd, "package.json"));
  const loaded = await importModule(inProject === undefined ? ENGINE_2026_PACKAGE : pathToFileURL(inProject).href);
  if (loaded === undefined) return undefined;
  if (typeof loaded.createEngine2026 !== "function")
    throw new Error(`${ENGINE_2026_PACKAGE} was found but has no createEngine2026 export: reinstall it.`);
  return loaded.createEngine2026 as Engine2026Factory;
};

/** The module, or undefined when the package itself is not installed. */
async function importModule(specifier: string): Promise<{ createEngine2026?: unknown } | undefined> {
  try {
    return (await import(specifier)) as { createEngine2026?: unknown };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = code === "ERR_MODULE_NOT_FOUND" && (error as Error).message.includes(`'${ENGINE_2026_PACKAGE}'`);
    if (missing) return undefined;
    throw error;
  }
}

/** Where the package is installed for the project whose manifest is `manifest` (resolved as require would). */
function resolveFrom(manifest: string): string | undefined {
  try {
    return createRequire(manifest).resolve(ENGINE_2026_PACKAGE);
  } catch {
    return undefined;
  }
}
