import { createEngine2026, type Engine2026TransportFactory } from "@mcp-tool-adapter/engine-2026";
import type { JSONRPCMessage, Transport as V2Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import type { Transport as V1Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MCPEngine, MCPServerConfig, MCPToolAdapterOptions } from "mcp-tool-adapter";

/**
 * Which engine a run speaks MCP through, chosen for the whole run by the cucumber profile's world
 * parameter `engine` (cucumber.mjs): the adapter's default engine on SDK 1.x, or
 * `@mcp-tool-adapter/engine-2026` on `@modelcontextprotocol/client` 2.x with every server on
 * `protocol: "auto"` (2025 over stdio, a `server/discover` probe first over streamable HTTP).
 */
export type EngineUnderTest = "default" | "engine-2026";

export const ENGINES_UNDER_TEST: readonly EngineUnderTest[] = ["default", "engine-2026"];

/** The world parameter's engine; a name the suite does not know stops the run instead of testing the wrong engine. */
export function engineFromParameters(parameters: unknown): EngineUnderTest {
  const engine = (parameters as { engine?: unknown } | undefined)?.engine ?? "default";
  if (!ENGINES_UNDER_TEST.includes(engine as EngineUnderTest))
    throw new Error(
      `Unknown engine ${JSON.stringify(engine)} in the cucumber world parameters: use one of ${ENGINES_UNDER_TEST.join(", ")}.`,
    );
  return engine as EngineUnderTest;
}

/** The CLI's or a server set's engine for this run: none (their default) or a fresh engine-2026. */
export function engineOption(engine: EngineUnderTest): { engine?: MCPEngine } {
  return engine === "engine-2026" ? { engine: createEngine2026() } : {};
}

/**
 * Adapter options on this run's engine. On the default engine they are returned as they are. On
 * engine-2026, a scenario's injected SDK 1.x transport (the in-process server of a "mock
 * transport", with its fault) reaches the v2 client through `asV2Transport`; without one the
 * engine builds its own v2 transports from the config (the umbrella's default transports are
 * SDK 1.x ones, which that engine does not use).
 */
export function adapterOptionsOn(
  engine: EngineUnderTest,
  options: MCPToolAdapterOptions = {},
  v2Transport?: Engine2026TransportFactory,
): MCPToolAdapterOptions {
  if (engine === "default") return options;
  const { transport } = options;
  const injected: Engine2026TransportFactory | undefined =
    v2Transport ??
    (transport === undefined
      ? undefined
      : async (server) =>
          asV2Transport(
            typeof transport === "function" ? await transport(server as unknown as MCPServerConfig) : transport,
          ));
  return { ...options, engine: createEngine2026(injected === undefined ? {} : { transport: injected }) };
}

/**
 * An SDK 1.x transport as an SDK v2 one: both carry the same plain JSON-RPC messages, so this only
 * forwards start, send, close and the three callbacks. No SDK object crosses: the v2 client sees
 * this wrapper, the 1.x transport sees plain messages.
 */
export function asV2Transport(inner: V1Transport): V2Transport {
  const outer: V2Transport = {
    start: () => inner.start(),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => inner.send(message, options),
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onmessage = (message) => outer.onmessage?.(message);
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  return outer;
}
