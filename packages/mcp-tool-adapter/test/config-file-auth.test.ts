import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config-file/load-config-file.js";

function parse(servers: Record<string, unknown>, env: Record<string, string> = {}) {
  return parseConfig(JSON.stringify({ mcpServers: servers }), { file: "mcp.json", env });
}

describe("config files: auth entries", () => {
  it("bearer becomes the Authorization header, its ${VAR} expanded", () => {
    const { servers } = parse(
      { api: { url: "https://mcp.example.com/mcp", auth: { type: "bearer", token: "${API_TOKEN}" } } },
      { API_TOKEN: "t0ken-value" },
    );
    expect(servers.api).toMatchObject({ headers: { Authorization: "Bearer t0ken-value" } });
    expect(servers.api).not.toHaveProperty("auth");
  });

  it("oauth and client_credentials stay on the entry for the server set", () => {
    const { servers } = parse({
      github: { type: "http", url: "https://mcp.example.com/mcp", auth: { type: "oauth", scopes: ["repo"] } },
      robot: {
        url: "https://mcp.example.com/mcp",
        auth: {
          type: "client_credentials",
          clientId: "c",
          clientSecret: "s",
          authorizationServer: "https://as.example.com",
        },
      },
    });
    expect(servers.github).toMatchObject({ auth: { type: "oauth", scopes: ["repo"] } });
    expect(servers.robot).toMatchObject({ auth: { type: "client_credentials", clientId: "c" } });
  });

  it("rejects auth on a stdio server, an unknown type, a missing secret, and bearer beside an Authorization header", () => {
    expect(() => parse({ local: { command: "node", auth: { type: "oauth" } } })).toThrow(
      /local.*auth.*HTTP servers only/,
    );
    expect(() => parse({ a: { url: "https://x.example/mcp", auth: { type: "magic" } } })).toThrow(/a.*auth/);
    expect(() =>
      parse({
        a: {
          url: "https://x.example/mcp",
          auth: { type: "client_credentials", clientId: "c", authorizationServer: "https://as.example" },
        },
      }),
    ).toThrow(/exactly one of clientSecret or privateKey/);
    expect(() =>
      parse({
        a: {
          url: "https://x.example/mcp",
          headers: { authorization: "Bearer x" },
          auth: { type: "bearer", token: "y" },
        },
      }),
    ).toThrow(/both set a token/);
  });
});
