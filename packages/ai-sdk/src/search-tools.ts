import type { ToolSource } from "@mcp-tool-adapter/model-tools";
import { activeToolNames, createAISDKTools, type AISDKTool, type AISDKToolsOptions } from "./ai-sdk-tools.js";

/** What a tool search gives this bridge (`createToolSearch(...)` fits as it is). */
export interface AISDKToolSearchInput {
  readonly catalog: ToolSource;
  readonly isActive: (registryName: string) => boolean;
}

/** A tool search's tools for `generateText` / `streamText`: pass `tools` and `prepareStep` as they are. */
export interface AISDKSearchTools {
  /** Every tool of the search's catalog, kept current between steps (the same object all run long). */
  readonly tools: Record<string, AISDKTool>;
  /** Brings `tools` up to date with the catalog and offers the active ones (meta-tools, pinned, loaded). */
  readonly prepareStep: () => { activeTools: string[] };
  /** Stops following the catalog. */
  close(): void;
}

/**
 * Tool search in the AI SDK, with tools that arrive mid-run. The AI SDK (7.x) has no way to return
 * new tools from `prepareStep`, but its step loop reads the `tools` record it was given again at
 * every step (`filterActiveTools` over `Object.entries(tools)`, then runs calls against that
 * step's tools). So this keeps one record: when the catalog changes (a server's
 * `tools/list_changed`), the next `prepareStep` adds the new tools to it, drops the removed ones,
 * and the model can search, load and call a tool that did not exist when the run started.
 */
export function createAISDKSearchTools(
  search: AISDKToolSearchInput,
  options: AISDKToolsOptions = {},
): AISDKSearchTools {
  const { catalog, isActive } = search;
  const tools = createAISDKTools(catalog, options);
  let stale = false;
  const unsubscribe = catalog.subscribe(() => {
    stale = true;
  });
  return {
    tools,
    prepareStep: () => {
      if (stale) {
        stale = false;
        const fresh = createAISDKTools(catalog, options);
        for (const name of Object.keys(tools)) if (!(name in fresh)) Reflect.deleteProperty(tools, name);
        Object.assign(tools, fresh);
      }
      return { activeTools: activeToolNames(tools, isActive) };
    },
    close: unsubscribe,
  };
}
