import { describeCause } from "@mcp-tool-adapter/core";
import { displayName } from "./display-name.js";
import { frozenSnapshot } from "./frozen-snapshot.js";
import { RegistryError } from "./registry-error.js";
import { sameData } from "./same-data.js";
import type { RegisteredTool, ToolDefinition } from "./types.js";
import { validateToolName, type NameKind } from "./validate-name.js";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

/** @param namespace the namespace a tool name is checked for, named in the message */
export function assertValidName(kind: NameKind, name: string, namespace?: string): void {
  const reason = validateToolName(kind, name);
  if (reason === undefined) return;
  const where = namespace === undefined ? "" : ` in namespace ${displayName(namespace)}`;
  throw new RegistryError(
    "INVALID_NAME",
    `Invalid ${kind} name ${displayName(name)}${where}: ${reason}. ` +
      `Rename the ${kind}${kind === "tool" ? " or leave it out of the registration" : ""}.`,
  );
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** The first thing wrong with a definition's fields (other than its name), if any. */
function definitionProblem(definition: ToolDefinition): string | undefined {
  const { description, inputSchema, capabilities, source, sourceMetadata, checkpointable, handler } = definition;
  if (typeof handler !== "function") return `its handler must be a function (got ${typeName(handler)})`;
  if (typeof description !== "string") return `its description must be a string (got ${typeName(description)})`;
  if (!isRecord(inputSchema)) return `its inputSchema must be an object (got ${typeName(inputSchema)})`;
  if (!isRecord(capabilities)) return `its capabilities must be an object (got ${typeName(capabilities)})`;
  if (typeof capabilities.readOnly !== "boolean" || typeof capabilities.writes !== "boolean") {
    return "its capabilities.readOnly and capabilities.writes must be booleans";
  }
  if (capabilities.readOnly && capabilities.writes) {
    return "its capabilities say both readOnly and writes; a tool that writes is not read-only";
  }
  if (typeof source !== "string" || source.length === 0) return "its source must be a non-empty string";
  if (!isRecord(sourceMetadata)) return `its sourceMetadata must be an object (got ${typeName(sourceMetadata)})`;
  if (typeof checkpointable !== "boolean")
    return `its checkpointable must be a boolean (got ${typeName(checkpointable)})`;
  return undefined;
}

// Built only for an error message: escaping two names for every registered tool adds up.
function describeTool(namespace: string, localName: string): string {
  return `tool ${displayName(localName)} in namespace ${displayName(namespace)}`;
}

function frozenCopy<T>(value: T, field: string, namespace: string, localName: string): T {
  try {
    return frozenSnapshot(value);
  } catch (error) {
    throw new RegistryError(
      "INVALID_TOOL",
      `Cannot register ${describeTool(namespace, localName)}: its ${field} cannot be copied (${describeCause(error)}). ` +
        "Pass plain data (no functions or class instances that cannot be cloned).",
      { cause: error },
    );
  }
}

/**
 * Checks a definition and returns the registry's own frozen copy of it, so later changes
 * to the caller's object (or its schema and metadata) cannot reach the registry.
 */
export function snapshotTool(namespace: string, definition: ToolDefinition): RegisteredTool {
  if (!isRecord(definition)) {
    throw new RegistryError(
      "INVALID_TOOL",
      `Cannot register a tool in namespace ${displayName(namespace)}: expected a tool definition object, got ${typeName(definition)}.`,
    );
  }
  const localName = definition.name;
  assertValidName("tool", localName, namespace);
  const problem = definitionProblem(definition);
  if (problem !== undefined) {
    throw new RegistryError(
      "INVALID_TOOL",
      `Cannot register ${describeTool(namespace, localName)}: ${problem}. Fix the tool definition and register it again.`,
    );
  }
  return Object.freeze({
    name: `${namespace}/${localName}`,
    namespace,
    localName,
    description: definition.description,
    inputSchema: frozenCopy(definition.inputSchema, "inputSchema", namespace, localName),
    capabilities: frozenCopy(definition.capabilities, "capabilities", namespace, localName),
    source: definition.source,
    sourceMetadata: frozenCopy(definition.sourceMetadata, "sourceMetadata", namespace, localName),
    checkpointable: definition.checkpointable,
    handler: definition.handler,
  });
}

/** Whether two entries differ in anything a consumer can see (a new handler alone is not a change). */
export function describesSameTool(left: RegisteredTool, right: RegisteredTool): boolean {
  return (
    left.description === right.description &&
    left.source === right.source &&
    left.checkpointable === right.checkpointable &&
    sameData(left.inputSchema, right.inputSchema) &&
    sameData(left.capabilities, right.capabilities) &&
    sameData(left.sourceMetadata, right.sourceMetadata)
  );
}
