import { World, type IWorldOptions } from "@cucumber/cucumber";
import type { InMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import type {
  MCPProgress,
  MCPServerConfig,
  MCPToolAdapter,
  MCPToolFilter,
  MCPToolResult,
  RegistrationReport,
  ToolCallResult,
  ToolCapability,
  ToolRegistry,
} from "mcp-tool-adapter";
import { engineFromParameters, type EngineUnderTest } from "./engine.js";

/** Something a scenario started and the After hook must stop, newest first. */
export type Cleanup = () => Promise<void> | void;

/** A real server a scenario started: how to restart it (the adapter must then reconnect). */
export interface RealServerHandle {
  readonly description: string;
  restart(): Promise<void>;
}

/** Options every "When I invoke ..." step passes along (a scenario's Given may set a timeout). */
export interface InvokeDefaults {
  timeoutMs?: number;
}

/**
 * One scenario's state: the adapter under test and what the last step produced. Steps read
 * it through the `require*` accessors so a missing Given fails with a message, not a TypeError.
 */
export class AdapterWorld extends World {
  /** The engine this whole run speaks MCP through (the profile's world parameter `engine`). */
  readonly engine: EngineUnderTest;
  /** The config a "Given an MCP server config ..." step built (possibly invalid on purpose). */
  config: Record<string, unknown> | undefined;
  adapter: MCPToolAdapter | undefined;
  /** The in-process server behind a mock transport, when the scenario has one. */
  server: InMemoryTestServer | undefined;
  registry: ToolRegistry | undefined;
  filter: MCPToolFilter | undefined;
  invokeDefaults: InvokeDefaults = {};
  lastResult: MCPToolResult | undefined;
  lastRegistryResult: ToolCallResult | undefined;
  lastRegistration: RegistrationReport | undefined;
  /** What the last step "expecting an error" caught. */
  lastError: unknown;
  inferred: ToolCapability | undefined;
  /** Progress updates the last "reporting progress" invocation received, in arrival order. */
  progress: MCPProgress[] = [];
  /** The real server a "Given a connected adapter to server-..." step started, if any. */
  realServer: RealServerHandle | undefined;
  /** A fresh directory the scenario may write in (removed after the scenario). */
  tempDir: string | undefined;
  readonly #cleanups: Cleanup[] = [];

  constructor(options: IWorldOptions) {
    super(options);
    this.engine = engineFromParameters(options.parameters);
  }

  /** Registers work for the After hook; cleanups run newest first. */
  onCleanup(cleanup: Cleanup): void {
    this.#cleanups.push(cleanup);
  }

  /** Runs every cleanup even when some fail, then reports the failures together. */
  async cleanUp(): Promise<void> {
    const failures: unknown[] = [];
    for (const cleanup of this.#cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} scenario cleanup(s) failed`);
  }

  requireConfig(): MCPServerConfig {
    if (this.config === undefined)
      throw new Error("No server config yet: start the scenario with a 'Given an MCP server config ...' step.");
    return this.config as MCPServerConfig;
  }

  requireAdapter(): MCPToolAdapter {
    if (this.adapter === undefined)
      throw new Error("No adapter yet: start the scenario with a 'Given ... MCP adapter ...' step.");
    return this.adapter;
  }

  requireServer(): InMemoryTestServer {
    if (this.server === undefined)
      throw new Error("This scenario has no in-process server (mock transport) to change.");
    return this.server;
  }

  requireRegistry(): ToolRegistry {
    if (this.registry === undefined) throw new Error("No registry yet: add 'Given an empty MCP tool registry'.");
    return this.registry;
  }

  requireTempDir(): string {
    if (this.tempDir === undefined) throw new Error("This scenario has no temporary directory.");
    return this.tempDir;
  }

  requireResult(): MCPToolResult {
    if (this.lastResult === undefined)
      throw new Error("No invocation result yet: a 'When I invoke ...' step must run first.");
    return this.lastResult;
  }

  requireError(): Error {
    if (this.lastError === undefined)
      throw new Error("The previous step did not fail, but the scenario expected an error.");
    if (!(this.lastError instanceof Error))
      throw new Error(`Expected an Error to be thrown, got ${JSON.stringify(this.lastError)}`);
    return this.lastError;
  }
}
