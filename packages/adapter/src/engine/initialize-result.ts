import type { MCPImplementation, MCPServerCapabilities } from "@mcp-tool-adapter/core";

/**
 * The 2025-era handshake's facts that SDK 1.x's `types.js` holds, written out so that the
 * handshake does not load that module (its Zod schemas are some 5 MB of live heap). A test holds
 * them equal to the SDK's, and `checkInitializeResult` to its `InitializeResultSchema`.
 */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
]);

export interface InitializeResult {
  readonly protocolVersion: string;
  readonly capabilities: MCPServerCapabilities;
  readonly serverInfo: MCPImplementation;
  readonly instructions: string | undefined;
}

/** Capabilities whose value must be an object when present; the others with flags inside. */
const OBJECT_CAPABILITIES = ["logging", "completions", "tasks"] as const;
const FLAG_CAPABILITIES = { prompts: ["listChanged"], resources: ["subscribe", "listChanged"], tools: ["listChanged"] };
const OPTIONAL_INFO_STRINGS = ["title", "websiteUrl", "description"] as const;

/**
 * The server's answer to `initialize`, checked field by field as SDK 1.x's InitializeResultSchema
 * checks it (the types of the fields it names; other fields pass). Throws an Error naming the
 * first field that does not fit.
 */
export function checkInitializeResult(answer: unknown): InitializeResult {
  const result = objectAt(answer, "the initialize result");
  const { protocolVersion, instructions } = result;
  if (typeof protocolVersion !== "string") throw invalid("protocolVersion must be a string");
  if (instructions !== undefined && typeof instructions !== "string") {
    throw invalid("instructions must be a string when present");
  }
  if (result._meta !== undefined) objectAt(result._meta, "_meta");
  return {
    protocolVersion,
    capabilities: checkCapabilities(result.capabilities),
    serverInfo: checkServerInfo(result.serverInfo),
    instructions,
  };
}

function checkCapabilities(value: unknown): MCPServerCapabilities {
  const capabilities = objectAt(value, "capabilities");
  for (const name of OBJECT_CAPABILITIES) {
    if (capabilities[name] !== undefined) objectAt(capabilities[name], `capabilities.${name}`);
  }
  for (const [name, flags] of Object.entries(FLAG_CAPABILITIES)) {
    if (capabilities[name] === undefined) continue;
    const capability = objectAt(capabilities[name], `capabilities.${name}`);
    for (const flag of flags) {
      const set = capability[flag];
      if (set !== undefined && typeof set !== "boolean")
        throw invalid(`capabilities.${name}.${flag} must be a boolean`);
    }
  }
  if (capabilities.experimental !== undefined) {
    const experimental = objectAt(capabilities.experimental, "capabilities.experimental");
    for (const [name, each] of Object.entries(experimental)) objectAt(each, `capabilities.experimental.${name}`);
  }
  return capabilities;
}

function checkServerInfo(value: unknown): MCPImplementation {
  const info = objectAt(value, "serverInfo");
  if (typeof info.name !== "string") throw invalid("serverInfo.name must be a string");
  if (typeof info.version !== "string") throw invalid("serverInfo.version must be a string");
  for (const name of OPTIONAL_INFO_STRINGS) {
    if (info[name] !== undefined && typeof info[name] !== "string") {
      throw invalid(`serverInfo.${name} must be a string when present`);
    }
  }
  if (info.icons !== undefined && !Array.isArray(info.icons)) throw invalid("serverInfo.icons must be an array");
  return info as unknown as MCPImplementation;
}

function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function invalid(what: string): Error {
  return new Error(`Invalid initialize result from the server: ${what}`);
}
