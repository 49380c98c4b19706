import { inferCapabilities, type ToolCapability } from "@mcp-tool-adapter/capability-inference";
import type { CapabilityOverridesByTool, MCPToolAnnotations } from "./types.js";

/**
 * What a tool may do: capability inference from its annotations and name, with the user's
 * override for that tool applied. The one answer that registration, interceptors (approval)
 * and retry safety all use, so an override that says a tool writes is never bypassed.
 */
export function toolCapability(
  tool: { readonly name: string; readonly annotations?: MCPToolAnnotations | undefined },
  overrides: CapabilityOverridesByTool | undefined,
): ToolCapability {
  // Own keys only: a tool named "constructor" must not pick up Object.prototype's.
  const override = overrides !== undefined && Object.hasOwn(overrides, tool.name) ? overrides[tool.name] : undefined;
  return inferCapabilities(tool.name, tool.annotations, override);
}

/** A registration's overrides over the adapter's, per tool (the registration's win); undefined when neither has any. */
export function mergedOverrides(
  adapter: CapabilityOverridesByTool | undefined,
  registration: CapabilityOverridesByTool | undefined,
): CapabilityOverridesByTool | undefined {
  return adapter === undefined && registration === undefined ? undefined : { ...adapter, ...registration };
}
