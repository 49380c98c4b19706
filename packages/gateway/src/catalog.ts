import type { Logger, MCPServerSet, ServerSetAdapter } from "mcp-tool-adapter";
import type { MCPToolDescriptor, ToolPinFinding } from "@mcp-tool-adapter/adapter";
import type { ToolCapabilities } from "@mcp-tool-adapter/registry";
import type { Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import { describeCause } from "@mcp-tool-adapter/core";
import { exposeNames, type ExposedName } from "./exposed-names.js";

/** What a tool filter decides on: which server, the tool's own name, what it may do, its definition. */
export interface GatewayToolInfo {
  readonly server: string;
  readonly name: string;
  readonly capabilities: ToolCapabilities;
  readonly descriptor: MCPToolDescriptor;
}

/** Keeps a tool exposed (true) or hides it from every downstream client (false). Toolsets plug in here. */
export type GatewayToolFilter = (tool: GatewayToolInfo) => boolean;

/** One exposed tool: where it goes and what the policy needs to know of it. */
export interface CatalogTool extends ExposedName {
  readonly capabilities: ToolCapabilities;
  readonly wire: Tool;
}

/** A tool the pinning policy held back, with the reason: shown in the tool list's `_meta`. */
export interface WithheldTool {
  readonly server: string;
  readonly tool: string;
  readonly status: ToolPinFinding["status"];
  readonly reason: string;
}

export interface CatalogOptions {
  set: MCPServerSet;
  singleServer: boolean;
  toolFilter?: GatewayToolFilter | undefined;
  logger?: Logger | undefined;
}

/** The `_meta` key under which tools/list names the tools pinning withheld. */
export const WITHHELD_META_KEY = "io.github.mcp-tool-adapter/withheld";

/**
 * What the gateway exposes, gathered from the server set: tools from its registry (so the config's
 * tool filters apply) with their full definitions from each adapter, prompts and resources listed
 * from each upstream on demand. Names are built per listing, so a change upstream shows at once.
 */
export class Catalog {
  readonly #options: CatalogOptions;
  #tools: Map<string, CatalogTool> | undefined;
  #prompts = new Map<string, ExposedName>();
  #resourceOwners = new Map<string, string>();
  #templateOwners: { prefix: string; server: string }[] = [];

  constructor(options: CatalogOptions) {
    this.#options = options;
  }

  /** Forget the tool list: the next listing rebuilds it (after an upstream list change). */
  invalidateTools(): void {
    this.#tools = undefined;
  }

  listTools(): CatalogTool[] {
    return [...this.#toolMap().values()];
  }

  findTool(exposedName: string): CatalogTool | undefined {
    return this.#toolMap().get(exposedName);
  }

  withheld(): WithheldTool[] {
    const withheld: WithheldTool[] = [];
    for (const server of this.#options.set.serverNames) {
      for (const finding of this.#adapter(server)?.pinFindings ?? []) {
        if (finding.action !== "withheld") continue;
        withheld.push({ server, tool: finding.tool, status: finding.status, reason: finding.message });
      }
    }
    return withheld;
  }

  async listPrompts(): Promise<Prompt[]> {
    const listed = await this.#gather("prompts", (adapter) => adapter.listPrompts?.() ?? Promise.resolve([]));
    const items = listed.flatMap(({ server, items: prompts }) =>
      prompts.map((prompt) => ({ server, upstreamName: prompt.name, prompt })),
    );
    const exposed = exposeNames(items, this.#options.singleServer);
    this.#prompts = new Map(exposed.map((name) => [name.exposedName, name]));
    return items.map((item, index) => ({ ...item.prompt, name: exposed[index]?.exposedName ?? item.upstreamName }));
  }

  async findPrompt(exposedName: string): Promise<ExposedName | undefined> {
    if (!this.#prompts.has(exposedName)) await this.listPrompts();
    return this.#prompts.get(exposedName);
  }

  async listResources(): Promise<Resource[]> {
    const listed = await this.#gather("resources", (adapter) => adapter.listResources?.() ?? Promise.resolve([]));
    const owners = new Map<string, string>();
    const resources: Resource[] = [];
    for (const { server, items } of listed) {
      for (const resource of items) {
        if (!owners.has(resource.uri)) owners.set(resource.uri, server);
        resources.push(resource);
      }
    }
    this.#resourceOwners = owners;
    return resources;
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    const listed = await this.#gather("resource templates", (adapter) =>
      adapter.listResourceTemplates === undefined ? Promise.resolve([]) : adapter.listResourceTemplates(),
    );
    this.#templateOwners = listed.flatMap(({ server, items }) =>
      items.map((template) => ({ prefix: template.uriTemplate.split("{")[0] ?? "", server })),
    );
    return listed.flatMap(({ items }) => items.map((template) => ({ ...template })));
  }

  /** The upstream that serves a URI: the one that listed it, else the one whose template's fixed start matches longest. */
  async resourceOwner(uri: string): Promise<string | undefined> {
    const servers = this.#connectedServers();
    if (this.#options.singleServer) return servers[0];
    if (!this.#resourceOwners.has(uri) && this.#templateOwners.length === 0) {
      await Promise.all([this.listResources(), this.listResourceTemplates()]);
    }
    const listed = this.#resourceOwners.get(uri);
    if (listed !== undefined) return listed;
    let best: { prefix: string; server: string } | undefined;
    for (const owner of this.#templateOwners) {
      if (owner.prefix.length > 0 && uri.startsWith(owner.prefix) && owner.prefix.length > (best?.prefix.length ?? 0))
        best = owner;
    }
    return best?.server;
  }

  adapter(server: string): ServerSetAdapter | undefined {
    return this.#adapter(server);
  }

  #adapter(server: string): ServerSetAdapter | undefined {
    const adapter = this.#options.set.getAdapter(server);
    return adapter?.isConnected === true ? adapter : undefined;
  }

  #connectedServers(): string[] {
    return this.#options.set.serverNames.filter((server) => this.#adapter(server) !== undefined);
  }

  #toolMap(): Map<string, CatalogTool> {
    if (this.#tools !== undefined) return this.#tools;
    const { set, toolFilter } = this.#options;
    const candidates: {
      server: string;
      upstreamName: string;
      descriptor: MCPToolDescriptor;
      capabilities: ToolCapabilities;
    }[] = [];
    for (const server of this.#connectedServers()) {
      const descriptors = new Map((this.#adapter(server)?.discoveredTools ?? []).map((tool) => [tool.name, tool]));
      for (const registered of set.registry.list({ namespace: server })) {
        const descriptor = descriptors.get(registered.localName);
        // Only the server's own tools: the registry may hold helper tools (read_resource) the server never listed.
        if (descriptor === undefined) continue;
        const info = { server, name: descriptor.name, capabilities: registered.capabilities, descriptor };
        if (toolFilter !== undefined && !toolFilter(info)) continue;
        candidates.push({ server, upstreamName: descriptor.name, descriptor, capabilities: registered.capabilities });
      }
    }
    const exposed = exposeNames(candidates, this.#options.singleServer);
    this.#tools = new Map(
      exposed.map((name, index) => {
        const { descriptor, capabilities } = candidates[index] as (typeof candidates)[number];
        const wire = { ...descriptor, name: name.exposedName } as Tool;
        return [name.exposedName, { ...name, capabilities, wire }];
      }),
    );
    return this.#tools;
  }

  async #gather<T>(
    what: string,
    list: (adapter: ServerSetAdapter) => Promise<readonly T[]>,
  ): Promise<{ server: string; items: readonly T[] }[]> {
    const servers = this.#connectedServers();
    const results = await Promise.all(
      servers.map(async (server) => {
        const adapter = this.#adapter(server);
        if (adapter === undefined) return { server, items: [] };
        try {
          return { server, items: await list(adapter) };
        } catch (error) {
          // One server failing to list costs the others nothing: its items are left out this time.
          this.#options.logger?.warn?.(
            `gateway: listing ${what} of MCP server "${server}" failed: ${describeCause(error)}`,
          );
          return { server, items: [] };
        }
      }),
    );
    return results;
  }
}
