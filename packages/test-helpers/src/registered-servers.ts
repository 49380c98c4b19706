import { join } from "node:path";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createInMemoryTestServer,
  createTempDirectory,
  everythingStdioServer,
  expectNoLeakedProcesses,
  memoryStdioServer,
  type InMemoryTestServer,
  type InMemoryTestServerOptions,
  type StdioLaunchConfig,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";

/** A real MCP server over stdio whose tools are registered (and kept current) in `registry`. */
export interface RegisteredServer {
  readonly adapter: MCPToolAdapter;
  readonly registry: ToolRegistry;
  /** Disconnects, removes any temp directory, then fails if a server process was left running. */
  close(): Promise<void>;
}

export interface RegisteredMemoryServer extends RegisteredServer {
  /** The JSONL file server-memory writes its graph to (in a fresh temp directory). */
  readonly memoryFile: string;
}

/** `@modelcontextprotocol/server-everything` over stdio, registered under namespace "everything". */
export async function registerEverythingServer(registry = new ToolRegistry()): Promise<RegisteredServer> {
  return registerStdioServer("everything", everythingStdioServer(), registry, undefined);
}

/** `@modelcontextprotocol/server-memory` over stdio with its own graph file, under namespace "memory". */
export async function registerMemoryServer(
  tempPrefix: string,
  registry = new ToolRegistry(),
): Promise<RegisteredMemoryServer> {
  const temp = await createTempDirectory(tempPrefix);
  const memoryFile = join(temp.path, "memory.jsonl");
  try {
    const server = await registerStdioServer("memory", memoryStdioServer(memoryFile), registry, temp);
    return { ...server, memoryFile };
  } catch (error) {
    await temp.remove();
    throw error;
  }
}

export interface RegisteredInMemoryServer extends RegisteredServer {
  /** The in-process SDK server: `addTool` / `removeTool` change its list and notify the adapter. */
  readonly server: InMemoryTestServer;
}

/** An in-process SDK server (from `@mcp-tool-adapter/test-servers`) registered under `namespace`. */
export async function registerInMemoryServer(
  namespace: string,
  options: InMemoryTestServerOptions,
  registry = new ToolRegistry(),
): Promise<RegisteredInMemoryServer> {
  const server = createInMemoryTestServer(options);
  const adapter = new MCPToolAdapter(
    { name: namespace, transport: "stdio", command: "in-process" },
    { transport: () => server.connect() },
  );
  return { ...(await connectAndRegister(adapter, namespace, registry, undefined)), server };
}

/** An in-process SDK server whose adapter is connected and has discovered its tools, registered nowhere. */
export interface DiscoveredInMemoryServer {
  readonly adapter: MCPToolAdapter;
  /** The in-process SDK server: `addTool` / `removeTool` change its list and notify the adapter. */
  readonly server: InMemoryTestServer;
  close(): Promise<void>;
}

/** A connected adapter on an in-process SDK server, as a user hands it to a bridge (named `name`). */
export async function discoverInMemoryServer(
  name: string,
  options: InMemoryTestServerOptions,
): Promise<DiscoveredInMemoryServer> {
  const server = createInMemoryTestServer(options);
  const adapter = new MCPToolAdapter(
    { name, transport: "stdio", command: "in-process" },
    { transport: () => server.connect() },
  );
  const close = async (): Promise<void> => {
    await adapter.disconnect();
    await server.close();
  };
  try {
    await adapter.connect();
    await adapter.discoverTools();
  } catch (error) {
    await close();
    throw error;
  }
  return { adapter, server, close };
}

async function registerStdioServer(
  name: string,
  launch: StdioLaunchConfig,
  registry: ToolRegistry,
  temp: TempDirectory | undefined,
): Promise<RegisteredServer> {
  const adapter = new MCPToolAdapter(
    { name, transport: "stdio", ...launch },
    { transport: () => createStdioTransport(launch) },
  );
  return connectAndRegister(adapter, name, registry, temp);
}

async function connectAndRegister(
  adapter: MCPToolAdapter,
  name: string,
  registry: ToolRegistry,
  temp: TempDirectory | undefined,
): Promise<RegisteredServer> {
  const close = async (): Promise<void> => {
    await adapter.disconnect();
    await temp?.remove();
    await expectNoLeakedProcesses();
  };
  try {
    await adapter.connect();
    await adapter.registerTools(registry, name);
  } catch (error) {
    await close();
    throw error;
  }
  return { adapter, registry, close };
}
