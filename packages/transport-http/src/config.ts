import { Type, type Static } from "typebox";

/** An HTTP MCP server: its endpoint URL and the headers sent with every request. */
export const HttpServerConfigSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      description: "The MCP endpoint, e.g. https://host/mcp (streamable HTTP) or https://host/sse (SSE).",
    }),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: "Sent with every request; values are treated as secrets.",
      }),
    ),
  },
  { additionalProperties: false },
);

export type HttpServerConfig = Static<typeof HttpServerConfigSchema>;
