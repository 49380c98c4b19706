import { Type, type Static } from "typebox";

const StringList = Type.Array(Type.String());
const StringMap = Type.Record(Type.String(), Type.String());

/** The transport names config files use: ours, VS Code's ("http") and the camelCase some tools write. */
export const CONFIG_FILE_TRANSPORTS = ["stdio", "sse", "streamable-http", "http", "streamableHttp"] as const;
const TransportName = Type.Union([
  Type.Literal("stdio"),
  Type.Literal("sse"),
  Type.Literal("streamable-http"),
  Type.Literal("http"),
  Type.Literal("streamableHttp"),
]);

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

/**
 * One entry under `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code), before the
 * transport is inferred. Unknown fields other tools write ("autoApprove", "envFile", ...) are
 * allowed and ignored; the fields we read must have the right types.
 */
export const ConfigFileServerEntrySchema = Type.Object({
  type: Type.Optional(TransportName),
  transport: Type.Optional(TransportName),
  command: Type.Optional(Type.String()),
  args: Type.Optional(StringList),
  env: Type.Optional(StringMap),
  cwd: Type.Optional(Type.String()),
  /** stdio: `true` passes the host's whole environment to the server, a list only those variables. */
  inheritEnv: Type.Optional(Type.Union([Type.Boolean(), StringList])),
  url: Type.Optional(Type.String()),
  headers: Type.Optional(StringMap),
  tools: Type.Optional(ServerToolsConfigSchema),
  connectTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
  disabled: Type.Optional(Type.Boolean()),
});

export type ConfigFileServerEntry = Static<typeof ConfigFileServerEntrySchema>;
export type ConfigFileTransport = (typeof CONFIG_FILE_TRANSPORTS)[number];
