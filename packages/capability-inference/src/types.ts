/** Where a capability field's value came from, in the order the policy consults them. */
export type CapabilitySource = "override" | "annotation" | "name" | "default";

/** The MCP `ToolAnnotations` hints that bear on capabilities (all optional, all hints). */
export interface ToolAnnotationHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A user's explicit word about a tool; every field given here wins over annotations and names. */
export interface CapabilityOverrides {
  readOnly?: boolean;
  writes?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

export interface CapabilityDecisions {
  readOnly: CapabilitySource;
  writes: CapabilitySource;
  destructive?: CapabilitySource;
  idempotent?: CapabilitySource;
  openWorld?: CapabilitySource;
}

/**
 * What a tool may do. `readOnly` and `writes` are always set and never both true;
 * `destructive`, `idempotent` and `openWorld` are present only when an annotation or an
 * override states them (MCP's defaults for missing hints are not statements).
 */
export interface ToolCapability {
  readOnly: boolean;
  writes: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  decidedBy: CapabilityDecisions;
}
