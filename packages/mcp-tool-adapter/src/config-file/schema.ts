import { MCP_LOG_LEVELS } from "@mcp-tool-adapter/adapter";
import { HttpServerConfigSchema } from "@mcp-tool-adapter/transport-http/config-schema";
import { StdioServerConfigSchema } from "@mcp-tool-adapter/transport-stdio/config-schema";
import { Type, type Static } from "typebox";
import { CONFIG_FILE_TRANSPORTS } from "./transport-names.js";

// The schemas of a config file's server entry. Reading a config file does not load this module:
// it checks entries against entry-options-schema.generated.ts, which `pnpm generate:config-schema`
// renders from these schemas (a test keeps the two the same).

const StringList = Type.Array(Type.String());

const TransportName = Type.Enum(CONFIG_FILE_TRANSPORTS);

export const CapabilityOverridesSchema = Type.Object(
  {
    readOnly: Type.Optional(Type.Boolean()),
    writes: Type.Optional(Type.Boolean()),
    destructive: Type.Optional(Type.Boolean()),
    idempotent: Type.Optional(Type.Boolean()),
    openWorld: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ServerToolsConfigSchema = Type.Object(
  {
    include: Type.Optional(StringList),
    exclude: Type.Optional(StringList),
    overrides: Type.Optional(Type.Record(Type.String(), CapabilityOverridesSchema)),
  },
  { additionalProperties: false },
);

/** `recovery` in a config file: `true` for the defaults, or the numbers to change (docs/recovery.md). */
export const RecoveryConfigSchema = Type.Union([
  Type.Boolean(),
  Type.Object(
    {
      maxAttempts: Type.Optional(Type.Integer({ minimum: 1 })),
      initialDelayMs: Type.Optional(Type.Number({ minimum: 0 })),
      maxDelayMs: Type.Optional(Type.Number({ minimum: 0 })),
      multiplier: Type.Optional(Type.Number({ minimum: 1 })),
      jitter: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      cooldownMs: Type.Optional(Type.Number({ minimum: 0 })),
      maxRestartsPerWindow: Type.Optional(Type.Integer({ minimum: 1 })),
      windowMs: Type.Optional(Type.Number({ minimum: 0 })),
      maxCallRetries: Type.Optional(Type.Integer({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
]);

const RootSchema = Type.Object(
  { uri: Type.String({ minLength: 1 }), name: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

const Scopes = Type.Array(Type.String({ minLength: 1 }));
const NonEmpty = Type.String({ minLength: 1 });

/**
 * A server's `auth`: `oauth` (log in once, tokens refreshed on their own), `bearer` (a static
 * token, usually `${VAR}`; becomes the Authorization header), or `client_credentials` (a machine's
 * own credentials).
 */
export const ServerAuthConfigSchema = Type.Union([
  Type.Object(
    {
      type: Type.Literal("oauth"),
      clientId: Type.Optional(NonEmpty),
      clientSecret: Type.Optional(NonEmpty),
      scopes: Type.Optional(Scopes),
      metadataUrl: Type.Optional(NonEmpty),
      clientMetadataUrl: Type.Optional(NonEmpty),
      authorizationServer: Type.Optional(NonEmpty),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal("bearer"), token: NonEmpty }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal("client_credentials"),
      clientId: NonEmpty,
      clientSecret: Type.Optional(NonEmpty),
      privateKey: Type.Optional(NonEmpty),
      algorithm: Type.Optional(NonEmpty),
      authorizationServer: NonEmpty,
      scopes: Type.Optional(Scopes),
    },
    { additionalProperties: false },
  ),
]);

export type ServerAuthConfig = Static<typeof ServerAuthConfigSchema>;

/** The fields only a config file has: the transport's name in the editors' spellings, tool selection, per-server deadlines, disabling. */
export const ConfigFileEntryOptionsSchema = Type.Object({
  type: Type.Optional(TransportName),
  transport: Type.Optional(TransportName),
  tools: Type.Optional(ServerToolsConfigSchema),
  connectTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Deadline of each tool call to this server that sets none itself (ms; the adapter's default 60000). */
  callTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
  disabled: Type.Optional(Type.Boolean()),
  /** Folders the server may work in: absolute paths or file:// URIs, or { uri, name }. */
  roots: Type.Optional(Type.Array(Type.Union([Type.String({ minLength: 1 }), RootSchema]))),
  /** The server's log messages of this level and above are asked for (logging/setLevel) and printed. */
  logLevel: Type.Optional(Type.Enum([...MCP_LOG_LEVELS])),
  /** How an HTTP server authorizes; see docs/auth.md. */
  auth: Type.Optional(ServerAuthConfigSchema),
  /** Restart the server when it exits (or start a new HTTP session when it forgets ours); see docs/recovery.md. */
  recovery: Type.Optional(RecoveryConfigSchema),
});

export type ConfigFileEntryOptions = Static<typeof ConfigFileEntryOptionsSchema>;

/** The fields each transport reads, from that transport's own schema (generated into entry-options-schema.generated.ts). */
export const TRANSPORT_FIELDS = {
  stdio: Object.keys(StdioServerConfigSchema.properties) as (keyof typeof StdioServerConfigSchema.properties)[],
  http: Object.keys(HttpServerConfigSchema.properties) as (keyof typeof HttpServerConfigSchema.properties)[],
} as const;

/**
 * One entry under `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code), before the
 * transport is inferred: the file-only fields plus every transport's fields, each optional until
 * the transport is known. Unknown fields other tools write ("autoApprove", "envFile", ...) are
 * allowed and ignored.
 */
export const ConfigFileServerEntrySchema = Type.Object({
  ...ConfigFileEntryOptionsSchema.properties,
  ...Type.Partial(StdioServerConfigSchema).properties,
  ...Type.Partial(HttpServerConfigSchema).properties,
});

export type ConfigFileServerEntry = Static<typeof ConfigFileServerEntrySchema>;
