import type { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import type { EngineEra } from "../engine-sides.js";
import { failedCall, type LoadPeerClient } from "../peer-client.js";
import { configFor } from "./adapter.js";

type EngineChoice = "engine-2026" | "default";

/**
 * The adapter on one engine and era, as each engine's README shows it: for engine-2026
 * `new MCPToolAdapter({ ...config, protocol }, { engine: createEngine2026() })` of
 * `@mcp-tool-adapter/adapter`; for the default engine the umbrella package's `MCPToolAdapter`
 * (the same class with the SDK 1.x transports built from the config). Then `connect()`,
 * `discoverTools()`, and `invoke()` per call.
 */
function loadAdapterOn(engineChoice: EngineChoice, era: EngineEra): LoadPeerClient {
  return async () => {
    const { MCPToolAdapter: Adapter } =
      engineChoice === "engine-2026" ? await import("@mcp-tool-adapter/adapter") : await import("mcp-tool-adapter");
    // One engine per process, as its README says: it keeps what it learnt about each server.
    const engine =
      engineChoice === "engine-2026" ? (await import("@mcp-tool-adapter/engine-2026")).createEngine2026() : undefined;
    return (target) => {
      let adapter: MCPToolAdapter | undefined;
      const connected = (): MCPToolAdapter => {
        if (adapter === undefined) throw new Error("adapter: connect() first");
        return adapter;
      };
      return {
        async connect() {
          const next = new Adapter({ ...configFor(target), protocol: era }, engine === undefined ? {} : { engine });
          await next.connect();
          // As an agent host that registers the tools does; then every side sends only tools/call.
          await next.discoverTools();
          adapter = next;
        },
        async call(tool, args) {
          const result = await connected().invoke(tool, args);
          if (!result.success) throw failedCall(`adapter (${engineChoice})`, tool, result.error ?? "no error message");
        },
        async listAll() {
          return (await connected().discoverTools()).length;
        },
        async close() {
          await adapter?.disconnect();
          adapter = undefined;
        },
      };
    };
  };
}

export const loadEngine2026Client = loadAdapterOn("engine-2026", "2026-07-28");
export const loadEngine2026LegacyClient = loadAdapterOn("engine-2026", "2025");
export const loadDefaultEngineClient = loadAdapterOn("default", "2025");
