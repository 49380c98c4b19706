import { HttpServerConfigSchema } from "@mcp-tool-adapter/transport-http/config-schema";
import { StdioServerConfigSchema } from "@mcp-tool-adapter/transport-stdio/config-schema";
import { Type, type Static } from "typebox";

// The transports own their fields (command, args, env, cwd, inheritEnv; url, headers): each
// schema below is the adapter's own fields plus one transport's properties, taken from the
// transport package's schema entry. Nothing of a transport's config is restated here.
// Loaded only through the `/config-schema` entry: the adapter checks configs with
// findConfigIssues (config.ts), which says the same without loading TypeBox.

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
