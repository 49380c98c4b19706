import { isReadKeyword, isWriteKeyword } from "./keywords.js";
import { splitToolName } from "./split-tool-name.js";
import type {
  CapabilityDecisions,
  CapabilityOverrides,
  CapabilitySource,
  ToolAnnotationHints,
  ToolCapability,
} from "./types.js";

/** One source's word on the read/write question: the tool only reads, or it writes. */
interface Verdict {
  kind: "readOnly" | "writes";
  source: CapabilitySource;
}

// Annotations and overrides may arrive from the wire or from YAML: only real booleans count.
function stated(value: unknown): value is boolean {
  return typeof value === "boolean";
}

function overrideVerdict(overrides: CapabilityOverrides): Verdict | undefined {
  // A destructive tool writes by definition; when the user says both "read-only" and
  // "writes", the conservative reading (writes) wins, as it does for names.
  if (overrides.writes === true || overrides.destructive === true) return { kind: "writes", source: "override" };
  if (overrides.readOnly === true) return { kind: "readOnly", source: "override" };
  return undefined;
}

function annotationVerdict(annotations: ToolAnnotationHints): Verdict | undefined {
  // readOnlyHint: false is the server saying the tool modifies its environment;
  // destructiveHint: true says so too, even next to a contradictory readOnlyHint: true.
  if (annotations.readOnlyHint === false || annotations.destructiveHint === true) {
    return { kind: "writes", source: "annotation" };
  }
  if (annotations.readOnlyHint === true) return { kind: "readOnly", source: "annotation" };
  return undefined;
}

function nameVerdict(toolName: string): Verdict | undefined {
  const words = splitToolName(toolName);
  if (words.some(isWriteKeyword)) return { kind: "writes", source: "name" };
  if (words.some(isReadKeyword)) return { kind: "readOnly", source: "name" };
  return undefined;
}

/**
 * Conservative merge of annotation and name: if either says the tool writes, it writes;
 * otherwise the first (annotation before name) that says read-only decides.
 */
function lowerVerdict(annotations: ToolAnnotationHints, toolName: string): Verdict | undefined {
  const verdicts = [annotationVerdict(annotations), nameVerdict(toolName)];
  return verdicts.find((verdict) => verdict?.kind === "writes") ?? verdicts.find((verdict) => verdict !== undefined);
}

/**
 * Infers what an MCP tool may do from, in order of authority: the user's overrides, the
 * server's annotations, and the words of its name (the spec's keyword table). A tool is
 * never reported read-only while any source says it writes, unless the user overrides it.
 * The README documents the full rule table.
 */
export function inferCapabilities(
  toolName: string,
  annotations: ToolAnnotationHints = {},
  overrides: CapabilityOverrides = {},
): ToolCapability {
  let readOnly: boolean;
  let writes: boolean;
  const decidedBy: CapabilityDecisions = { readOnly: "default", writes: "default" };

  const explicit = overrideVerdict(overrides);
  if (explicit) {
    readOnly = explicit.kind === "readOnly";
    writes = explicit.kind === "writes";
    decidedBy.readOnly = "override";
    decidedBy.writes = "override";
  } else {
    const lower = lowerVerdict(annotations, toolName);
    readOnly = lower?.kind === "readOnly";
    writes = lower?.kind === "writes";
    if (lower) {
      decidedBy.readOnly = lower.source;
      decidedBy.writes = lower.source;
    }
    // What is left in overrides are `false` statements, which can only narrow the verdict.
    if (overrides.readOnly === false) {
      readOnly = false;
      decidedBy.readOnly = "override";
    }
    if (overrides.writes === false) {
      writes = false;
      decidedBy.writes = "override";
    }
  }

  const capability: ToolCapability = { readOnly, writes, decidedBy };

  const destructive = pick(overrides.destructive, annotations.destructiveHint);
  if (destructive) {
    // Destructive is a kind of writing: a tool settled as not writing cannot destroy.
    if (destructive.value && !writes) {
      capability.destructive = false;
      decidedBy.destructive = decidedBy.writes;
    } else {
      capability.destructive = destructive.value;
      decidedBy.destructive = destructive.source;
    }
  }
  const idempotent = pick(overrides.idempotent, annotations.idempotentHint);
  if (idempotent) {
    capability.idempotent = idempotent.value;
    decidedBy.idempotent = idempotent.source;
  }
  const openWorld = pick(overrides.openWorld, annotations.openWorldHint);
  if (openWorld) {
    capability.openWorld = openWorld.value;
    decidedBy.openWorld = openWorld.source;
  }
  return capability;
}

function pick(override: unknown, annotation: unknown): { value: boolean; source: CapabilitySource } | undefined {
  if (stated(override)) return { value: override, source: "override" };
  if (stated(annotation)) return { value: annotation, source: "annotation" };
  return undefined;
}
