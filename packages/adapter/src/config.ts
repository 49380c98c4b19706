import { HttpServerConfigSchema } from "@mcp-tool-adapter/transport-http/config";
import { StdioServerConfigSchema } from "@mcp-tool-adapter/transport-stdio/config";
import { Type, type Static } from "typebox";
// typebox/value checks through typebox/schema; importing the latter directly skips the value utilities.
import { Errors as schemaErrors } from "typebox/schema";
import { MCPConfigError, type MCPConfigIssue } from "./errors.js";

// The transports own their fields (command, args, env, cwd, inheritEnv; url, headers): each
// schema below is the adapter's own fields plus one transport's properties, taken from the
// transport package's schema-only entry. Nothing of a transport's config is restated here.

/** The fields the adapter itself reads, whatever the transport. */
const AdapterFields = {
  /** Identifies the server in messages, logs and `sourceMetadata.server`. */
  name: Type.String({ minLength: 1 }),
  /**
   * The protocol era to speak: "2025" (the initialize handshake), "2026-07-28" (needs
   * @mcp-tool-adapter/engine-2026), or "auto" (the default: the engine finds out).
   */
  protocol: Type.Optional(Type.Union([Type.Literal("auto"), Type.Literal("2025"), Type.Literal("2026-07-28")])),
};

/** A server the adapter reaches by spawning a process and speaking MCP over its stdin / stdout. */
export const StdioMCPServerConfigSchema = Type.Object({
  ...AdapterFields,
  transport: Type.Literal("stdio"),
  ...StdioServerConfigSchema.properties,
});

/** A server the adapter reaches over HTTP (legacy SSE or streamable HTTP). */
export const HttpMCPServerConfigSchema = Type.Object({
  ...AdapterFields,
  transport: Type.Union([Type.Literal("sse"), Type.Literal("streamable-http")]),
  ...HttpServerConfigSchema.properties,
});

/** Every server config the adapter accepts; unknown extra fields are allowed and kept. */
export const MCPServerConfigSchema = Type.Union([StdioMCPServerConfigSchema, HttpMCPServerConfigSchema]);

export type StdioMCPServerConfig = Static<typeof StdioMCPServerConfigSchema>;
export type HttpMCPServerConfig = Static<typeof HttpMCPServerConfigSchema>;
export type MCPServerConfig = Static<typeof MCPServerConfigSchema>;
export type MCPTransportType = MCPServerConfig["transport"];

export const TRANSPORT_TYPES: readonly MCPTransportType[] = Object.freeze(["stdio", "sse", "streamable-http"]);

/** Fields whose schema is a union, by JSON pointer: what a wrong value gets told. */
const UNION_FIELD_MESSAGES: Readonly<Record<string, string>> = {
  "/inheritEnv": "inheritEnv must be true, false or a list of environment variable names",
  "/protocol": `protocol must be "auto", "2025" or "2026-07-28"`,
};

const BaseConfigSchema = Type.Object({
  ...AdapterFields,
  transport: Type.Union([Type.Literal("stdio"), Type.Literal("sse"), Type.Literal("streamable-http")]),
});

/**
 * Checks an untrusted value against MCPServerConfigSchema and returns every problem at once
 * (an empty list means valid). Never throws, whatever the input.
 */
export function findConfigIssues(config: unknown): MCPConfigIssue[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return [
      { path: "", message: `server config must be an object with "name" and "transport", got ${describeKind(config)}` },
    ];
  }
  const transport = (config as { transport?: unknown }).transport;
  // Validate against the one branch the transport selects, so the issues name that branch's
  // fields ("command", "url") instead of a union's "must match a schema in anyOf".
  const schema =
    transport === "stdio"
      ? StdioMCPServerConfigSchema
      : transport === "sse" || transport === "streamable-http"
        ? HttpMCPServerConfigSchema
        : BaseConfigSchema;
  const issues: MCPConfigIssue[] = [];
  for (const error of schemaErrors(schema, config)[1]) {
    if (error.keyword === "required") {
      const missing = (error.params as { requiredProperties?: unknown }).requiredProperties;
      for (const property of Array.isArray(missing) ? (missing as string[]) : []) {
        issues.push({ path: `${error.instancePath}/${property}`, message: requiredMessage(property, transport) });
      }
    } else if (error.instancePath in UNION_FIELD_MESSAGES) {
      // One message for the field, not one per branch of its union.
      issues.push({ path: error.instancePath, message: UNION_FIELD_MESSAGES[error.instancePath] ?? "" });
    } else if (error.instancePath === "/transport") {
      issues.push({
        path: "/transport",
        message: `transport must be one of ${TRANSPORT_TYPES.map((t) => `"${t}"`).join(", ")}, got ${describeKind(transport)}`,
      });
    } else if (error.keyword !== "anyOf") {
      issues.push({ path: error.instancePath, message: `${fieldName(error.instancePath)} ${error.message}` });
    }
  }
  if (schema === HttpMCPServerConfigSchema) {
    const url = (config as { url?: unknown }).url;
    if (typeof url === "string" && url !== "" && !isHttpUrl(url)) {
      issues.push({ path: "/url", message: `url must be an absolute http:// or https:// URL, got "${url}"` });
    }
  }
  return dedupe(issues);
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

function fieldName(instancePath: string): string {
  return instancePath === "" ? "server config" : instancePath.slice(1).replaceAll("/", ".");
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

function dedupe(issues: MCPConfigIssue[]): MCPConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
