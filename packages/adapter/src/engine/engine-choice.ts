import type { MCPEngine, MCPProtocolSetting } from "@mcp-tool-adapter/core";
import type { MCPServerConfig } from "../config.js";
import { MCPConfigError } from "../errors.js";

/** The era a config asks for: its `protocol`, "auto" when it has none. */
export function protocolSetting(config: MCPServerConfig): MCPProtocolSetting {
  return config.protocol ?? "auto";
}

/**
 * Refuses, when the adapter is made, a server whose `protocol` the engine cannot speak: better a
 * config error now than a handshake that can never work.
 */
export function checkEngineProtocol(engine: MCPEngine, config: MCPServerConfig, isDefault: boolean): void {
  const protocol = protocolSetting(config);
  if (engine.protocols.includes(protocol)) return;
  const remedy =
    isDefault && protocol === "2026-07-28"
      ? `install @mcp-tool-adapter/engine-2026 and pass { engine: createEngine2026() } in the adapter options (or set "protocol" to "auto" or "2025")`
      : `use an engine that speaks it, or set "protocol" to one of ${engine.protocols.map((p) => `"${p}"`).join(", ")}`;
  throw new MCPConfigError(
    `MCP server "${config.name}" asks for protocol "${protocol}", which the engine ${engine.name} does not speak: ${remedy}.`,
    [{ path: "/protocol", message: `protocol "${protocol}" needs another engine` }],
  );
}
