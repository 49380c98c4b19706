import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCP_PROTOCOL_SETTINGS, type ConfigIssue } from "@mcp-tool-adapter/core";
import { findHttpConfigIssues } from "@mcp-tool-adapter/transport-http/config";
import { findStdioConfigIssues } from "@mcp-tool-adapter/transport-stdio/config";
import type { MCPServerConfig, MCPTransportType } from "./config-schema.js";
import { MCPConfigError } from "./errors.js";

export type { HttpMCPServerConfig, MCPServerConfig, MCPTransportType, StdioMCPServerConfig } from "./config-schema.js";

/** Builds a fresh transport for one connection; called on every connect, so reconnect gets a new one. */
export type TransportFactory = (config: MCPServerConfig) => Transport | Promise<Transport>;

export const TRANSPORT_TYPES: readonly MCPTransportType[] = Object.freeze(["stdio", "sse", "streamable-http"]);

// The checks below say in code what MCPServerConfigSchema (config-schema.ts) says in TypeBox,
// each transport's fields checked by that transport's own check: creating an adapter never loads
// TypeBox, whose hundreds of modules cost more to import than the SDK client itself. A property
// test holds them to the schema: they accept exactly the values the schema accepts.

/**
 * Checks an untrusted value against MCPServerConfigSchema and returns every problem at once
 * (an empty list means valid). Never throws, whatever the input.
 */
export function findConfigIssues(config: unknown): ConfigIssue[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return [
      { path: "", message: `server config must be an object with "name" and "transport", got ${describeKind(config)}` },
    ];
  }
  const { name, transport } = config as { name?: unknown; transport?: unknown };
  const issues: ConfigIssue[] = [];
  if (name === undefined) issues.push({ path: "/name", message: "name is required" });
  else if (typeof name !== "string") issues.push({ path: "/name", message: "name must be a string" });
  else if (name === "") issues.push({ path: "/name", message: "name must not be empty" });
  const { protocol } = config as { protocol?: unknown };
  if (protocol !== undefined && !(MCP_PROTOCOL_SETTINGS as readonly unknown[]).includes(protocol)) {
    issues.push({
      path: "/protocol",
      message: `protocol must be ${oneOf(MCP_PROTOCOL_SETTINGS)}, got ${describeKind(protocol)}`,
    });
  }
  // Check the fields of the one transport named, so the issues name that transport's fields
  // ("command", "url") instead of every transport's.
  if (transport === "stdio") {
    for (const issue of findStdioConfigIssues(config)) issues.push(withAdapterWording(issue, transport));
  } else if (transport === "sse" || transport === "streamable-http") {
    for (const issue of findHttpConfigIssues(config)) issues.push(withAdapterWording(issue, transport));
    const url = (config as { url?: unknown }).url;
    if (typeof url === "string" && url !== "" && !isHttpUrl(url)) {
      issues.push({ path: "/url", message: `url must be an absolute http:// or https:// URL, got "${url}"` });
    }
  } else if (transport === undefined) {
    issues.push({ path: "/transport", message: requiredMessage("transport", transport) });
  } else {
    issues.push({
      path: "/transport",
      message: `transport must be one of ${TRANSPORT_TYPES.map((t) => `"${t}"`).join(", ")}, got ${describeKind(transport)}`,
    });
  }
  return issues;
}

/** A transport's issue, with the adapter's word for a missing field (what it is for). */
function withAdapterWording(issue: ConfigIssue, transport: string): ConfigIssue {
  const property = issue.path.slice(1);
  return issue.message === `${property} is required`
    ? { path: issue.path, message: requiredMessage(property, transport) }
    : { path: issue.path, message: issue.message };
}

/** Returns the config typed when valid; otherwise throws MCPConfigError naming every bad field. */
export function validateServerConfig(config: unknown): MCPServerConfig {
  const issues = findConfigIssues(config);
  if (issues.length > 0) {
    const name =
      typeof (config as { name?: unknown } | null)?.name === "string"
        ? `"${(config as { name: string }).name}"`
        : "(unnamed)";
    throw new MCPConfigError(
      `Invalid MCP server config ${name}: ${issues.map((i) => i.message).join("; ")}. Fix these fields and create the adapter again.`,
      issues,
    );
  }
  return config as MCPServerConfig;
}

function requiredMessage(property: string, transport: unknown): string {
  if (property === "command")
    return `command is required for the stdio transport (the executable that starts the server)`;
  if (property === "url") return `url is required for the ${String(transport)} transport`;
  if (property === "transport")
    return `transport is required: one of ${TRANSPORT_TYPES.map((t) => `"${t}"`).join(", ")}`;
  return `${property} is required`;
}

/** `"a", "b" or "c"` */
function oneOf(values: readonly string[]): string {
  const quoted = values.map((value) => `"${value}"`);
  return quoted.length < 2 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1) ?? ""}`;
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `"${value}"`;
  return typeof value;
}

function isHttpUrl(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
