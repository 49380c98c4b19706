import fc from "fast-check";
import { Check } from "typebox/schema";
import { describe, expect, it } from "vitest";
import { MCPServerConfigSchema } from "../src/config-schema-entry.js";
import {
  MCPAdapterError,
  MCPConfigError,
  MCPToolAdapter,
  findConfigIssues,
  validateServerConfig,
} from "../src/index.js";

function configError(config: unknown): MCPConfigError {
  try {
    new MCPToolAdapter(config as never);
  } catch (error) {
    expect(MCPConfigError.isInstance(error)).toBe(true);
    return error as MCPConfigError;
  }
  throw new Error("expected MCPConfigError");
}

describe("server config", () => {
  it("keeps name and transport of a valid stdio config; not connected yet", () => {
    const adapter = new MCPToolAdapter({
      name: "github",
      transport: "stdio",
      command: "node",
      args: ["server.js"],
      env: { A: "1" },
    });
    expect(adapter.serverName).toBe("github");
    expect(adapter.transportType).toBe("stdio");
    expect(adapter.isConnected).toBe(false);
    expect(adapter.serverCapabilities).toBeUndefined();
    expect(adapter.discoveredTools).toEqual([]);
  });

  it("accepts sse and streamable-http configs with a url", () => {
    expect(
      new MCPToolAdapter({ name: "remote-api", transport: "sse", url: "https://api.example.com/mcp" }).transportType,
    ).toBe("sse");
    expect(
      new MCPToolAdapter({
        name: "h",
        transport: "streamable-http",
        url: "http://127.0.0.1:1/mcp",
        headers: { a: "b" },
      }).transportType,
    ).toBe("streamable-http");
  });

  it("stdio without command names the command field", () => {
    const error = configError({ name: "bad", transport: "stdio" });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain("command");
    expect(error.issues).toEqual([
      { path: "/command", message: expect.stringContaining("command is required") as string },
    ]);
  });

  it("sse and streamable-http without url name the url field", () => {
    for (const transport of ["sse", "streamable-http"]) {
      const error = configError({ name: "bad", transport });
      expect(error.message).toContain("url");
      expect(error.issues.map((i) => i.path)).toEqual(["/url"]);
    }
  });

  it("names every bad field in one error", () => {
    const error = configError({ transport: "stdio", args: [1], env: { A: 2 }, cwd: "" });
    expect(error.issues.map((i) => i.path).sort()).toEqual(["/args/0", "/command", "/cwd", "/env/A", "/name"]);
    for (const field of ["name", "command", "args", "env", "cwd"]) expect(error.message).toContain(field);
  });

  it("accepts inheritEnv (all or a list of names) on a stdio config and names it when malformed", () => {
    expect(validateServerConfig({ name: "a", transport: "stdio", command: "node", inheritEnv: true })).toMatchObject({
      inheritEnv: true,
    });
    expect(
      validateServerConfig({ name: "b", transport: "stdio", command: "node", inheritEnv: ["LANG", "NODE_OPTIONS"] }),
    ).toMatchObject({ inheritEnv: ["LANG", "NODE_OPTIONS"] });
    const error = configError({ name: "c", transport: "stdio", command: "node", inheritEnv: "yes" });
    expect(error.issues.map((i) => i.path)).toEqual(["/inheritEnv"]);
    expect(error.message).toContain("inheritEnv");
  });

  it("reports an unknown transport and a missing name together", () => {
    const error = configError({ transport: "websocket" });
    expect(error.issues.map((i) => i.path).sort()).toEqual(["/name", "/transport"]);
    expect(error.message).toContain('"stdio", "sse", "streamable-http"');
  });

  it("rejects a url that is not absolute http(s)", () => {
    expect(configError({ name: "x", transport: "sse", url: "not a url" }).issues).toEqual([
      { path: "/url", message: expect.stringContaining("absolute http") as string },
    ]);
    expect(configError({ name: "x", transport: "sse", url: "ftp://host/x" }).issues.map((i) => i.path)).toEqual([
      "/url",
    ]);
  });

  it.each([null, undefined, 42, "stdio", [], [1, 2], true, () => 1])(
    "throws MCPConfigError, never TypeError, for %p",
    (value) => {
      const error = configError(value);
      expect(error).toBeInstanceOf(MCPAdapterError);
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.path).toBe("");
    },
  );

  it("never throws anything but MCPConfigError for arbitrary input", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          validateServerConfig(value);
        } catch (error) {
          return MCPConfigError.isInstance(error) && error.issues.length > 0;
        }
        return findConfigIssues(value).length === 0;
      }),
      { numRuns: 500 },
    );
  });

  it("never throws for arbitrary objects with a known transport", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            transport: fc.constantFrom("stdio", "sse", "streamable-http"),
            name: fc.anything(),
            command: fc.anything(),
            url: fc.anything(),
            args: fc.anything(),
            env: fc.anything(),
          },
          { requiredKeys: ["transport"] },
        ),
        (value) => {
          const issues = findConfigIssues(value);
          for (const issue of issues) expect(typeof issue.message).toBe("string");
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it("accepts exactly what MCPServerConfigSchema accepts (with an absolute http(s) url)", () => {
    const nearConfig = fc.record(
      {
        name: fc.oneof(fc.string(), fc.anything()),
        transport: fc.oneof(fc.constantFrom("stdio", "sse", "streamable-http", "websocket"), fc.anything()),
        command: fc.oneof(fc.string(), fc.anything()),
        args: fc.oneof(fc.array(fc.string()), fc.anything()),
        env: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.anything()),
        cwd: fc.oneof(fc.string(), fc.anything()),
        inheritEnv: fc.oneof(fc.boolean(), fc.array(fc.string()), fc.anything()),
        url: fc.oneof(fc.webUrl(), fc.string(), fc.anything()),
        headers: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.anything()),
        protocol: fc.oneof(fc.constantFrom("auto", "2025", "2026-07-28", "2026"), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(nearConfig, fc.anything()), (config) => {
        const url = (config as { url?: unknown } | null)?.url;
        const httpUrlOk =
          (config as { transport?: unknown } | null)?.transport === "stdio" ||
          typeof url !== "string" ||
          /^https?:$/u.test(URL.parse(url)?.protocol ?? "");
        expect(findConfigIssues(config).length === 0).toBe(Check(MCPServerConfigSchema, config) && httpUrlOk);
      }),
      { numRuns: 2000 },
    );
  });

  it("exports the TypeBox union schema from its own entry", () => {
    expect(MCPServerConfigSchema.anyOf).toHaveLength(2);
  });

  it("refuses auth (the server set's and config file's OAuth field), naming the umbrella's adapter and the authProvider option", () => {
    const error = configError({
      name: "linear",
      transport: "streamable-http",
      url: "https://mcp.example.com/mcp",
      auth: { type: "oauth" },
    });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues.map((issue) => issue.path)).toEqual(["/auth"]);
    expect(error.message).toContain('"linear"');
    expect(error.message).toContain('MCPToolAdapter from the "mcp-tool-adapter" package');
    expect(error.message).toContain("authProvider option");
    // Without auth (or with it undefined) the same config is accepted.
    expect(
      () => new MCPToolAdapter({ name: "linear", transport: "streamable-http", url: "https://mcp.example.com/mcp" }),
    ).not.toThrow();
  });

  it("freezes the issues of the error", () => {
    const error = configError({ transport: "stdio" });
    expect(Object.isFrozen(error.issues)).toBe(true);
  });
});
