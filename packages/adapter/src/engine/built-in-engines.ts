import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MCPEngine } from "@mcp-tool-adapter/core";
import type { createSdkJsonSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import type { TransportFactory } from "../config.js";
import { JsonRpcEngine } from "./json-rpc-engine.js";
import { SdkV1Engine } from "./sdk-v1-engine.js";

/**
 * The engines inside the adapter, by the name a host picks them with: "json-rpc" (the default,
 * the adapter's own JSON-RPC session) and "sdk-v1" (SDK 1.x's Client, for a host that wants
 * the SDK's exact code path). Both speak the 2025-era protocol with SDK 1.x's types and constants.
 */
export type MCPBuiltInEngine = "json-rpc" | "sdk-v1";

export interface BuiltInEngineInputs {
  readonly transport: Transport | TransportFactory | undefined;
  readonly closeTimeoutMs: number;
  /** Built only for the SDK engine, which checks structured tool output with it. */
  readonly jsonSchemaValidator: () => ReturnType<typeof createSdkJsonSchemaValidator>;
}

/** The engine an adapter runs on: the one given, a built-in one by name, or the default. */
export function chooseEngine(choice: MCPEngine | MCPBuiltInEngine | undefined, inputs: BuiltInEngineInputs): MCPEngine {
  if (typeof choice === "object") return choice;
  if (choice === "sdk-v1") {
    return new SdkV1Engine({
      transport: inputs.transport,
      jsonSchemaValidator: inputs.jsonSchemaValidator(),
      closeTimeoutMs: inputs.closeTimeoutMs,
    });
  }
  return new JsonRpcEngine({ transport: inputs.transport, closeTimeoutMs: inputs.closeTimeoutMs });
}

/** Whether the engine is one of the adapter's own (which need the host's `transport`). */
export function isBuiltInEngine(engine: MCPEngine): boolean {
  return engine instanceof JsonRpcEngine || engine instanceof SdkV1Engine;
}
