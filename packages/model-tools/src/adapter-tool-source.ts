import { ToolRegistry, validateToolName, type RegistryChange, type ToolDefinition } from "@mcp-tool-adapter/registry";
import { ModelToolsError } from "./model-tools-error.js";

/**
 * What the bridges need of an `MCPToolAdapter`, described here so that this package does not
 * import the adapter: its server name (the namespace of its tools) and `registerTools`, which
 * fills a registry namespace with its tools and fills it again after each tools/list_changed.
 */
export interface ToolAdapterSource {
  /** The namespace its tools are named under (`serverName/tool`, `serverName__tool` for a model). */
  readonly serverName: string;
  /** Fills `namespace` of `registry` with its tools, and fills it again after each tools/list_changed. */
  registerTools(registry: ToolRegistry, namespace: string): Promise<unknown>;
}

/** A registry that knows whether the adapter has filled it yet (an empty fill counts: a server may have no tools). */
class AdapterRegistry extends ToolRegistry {
  #filled = false;

  /** A method, not a field: it changes during a call to the adapter. */
  isFilled(): boolean {
    return this.#filled;
  }

  override replaceNamespace(namespace: string, tools: readonly ToolDefinition[]): RegistryChange {
    const change = super.replaceNamespace(namespace, tools);
    this.#filled = true;
    return change;
  }
}

interface AdapterRegistration {
  readonly registry: AdapterRegistry;
  /** Why the last registration failed before filling anything. */
  failure?: string;
}

/**
 * One registry per adapter, kept filled by the adapter itself: registered once, it is filled
 * again after every tools/list_changed, so each new snapshot (and `subscribe`) sees the change.
 * A WeakMap, so an adapter that is dropped takes its registry with it.
 */
const registrations = new WeakMap<ToolAdapterSource, AdapterRegistration>();

/**
 * The adapter's tools as a registry under its server name. The bridges convert synchronously, so
 * the tools must be known now: an adapter that has discovered them fills the namespace before
 * `registerTools` returns. One that has not throws ModelToolsError `SOURCE_NOT_READY`, after
 * starting that discovery (a later call succeeds once it is done).
 */
export function adapterToolSource(adapter: ToolAdapterSource): ToolRegistry {
  const { serverName } = adapter;
  let registration = registrations.get(adapter);
  if (registration === undefined) {
    const problem = validateToolName("namespace", serverName);
    if (problem !== undefined) {
      throw new ModelToolsError(
        "INVALID_SOURCE",
        `Cannot use MCPToolAdapter "${serverName}" as a tool source: its server name is its tools' namespace, and ${problem}. Register its tools yourself under another namespace (await adapter.registerTools(registry, "name")) and pass the registry.`,
      );
    }
    registration = { registry: new AdapterRegistry() };
    registrations.set(adapter, registration);
  }
  if (!registration.registry.isFilled()) {
    const lastFailure = registration.failure;
    // Registering again is harmless (same registry and namespace): an adapter that has
    // discovered since the last attempt fills the namespace now.
    register(adapter, registration);
    if (!registration.registry.isFilled()) {
      const failed = lastFailure === undefined ? "" : ` (the last attempt failed: ${lastFailure})`;
      throw new ModelToolsError(
        "SOURCE_NOT_READY",
        `MCPToolAdapter "${serverName}" has not discovered its tools yet${failed}, so there is nothing to convert: call \`await adapter.connect()\` and \`await adapter.discoverTools()\` first. Its tools then stay current on tools/list_changed.`,
      );
    }
  }
  return registration.registry;
}

function register(adapter: ToolAdapterSource, registration: AdapterRegistration): void {
  registration.failure = undefined;
  // Not connected, or the discovery failed: nothing was filled; the next attempt names why.
  const failed = (error: unknown): void => {
    if (!registration.registry.isFilled())
      registration.failure = error instanceof Error ? error.message : String(error);
  };
  try {
    adapter.registerTools(registration.registry, adapter.serverName).catch(failed);
  } catch (error) {
    failed(error);
  }
}
