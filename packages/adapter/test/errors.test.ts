import { describe, expect, it } from "vitest";
import {
  MCPAdapterError,
  MCPConfigError,
  MCPConnectionError,
  MCPDiscoveryError,
  MCPNotConnectedError,
} from "../src/index.js";

describe("errors", () => {
  const cause = new Error("root cause");
  const errors = [
    new MCPConfigError("bad", [{ path: "/url", message: "url is required" }]),
    new MCPConnectionError("no connection", { serverName: "s", transportType: "stdio", cause }),
    new MCPNotConnectedError("not connected", { serverName: "s" }),
    new MCPDiscoveryError("discovery failed", { serverName: "s", cause }),
  ];

  it("have stable codes, names and a Symbol.for marker", () => {
    expect(errors.map((e) => e.code)).toEqual([
      "CONFIG_INVALID",
      "CONNECTION_FAILED",
      "NOT_CONNECTED",
      "DISCOVERY_FAILED",
    ]);
    expect(errors.map((e) => e.name)).toEqual([
      "MCPConfigError",
      "MCPConnectionError",
      "MCPNotConnectedError",
      "MCPDiscoveryError",
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expect((error as unknown as Record<symbol, unknown>)[Symbol.for("mcp-tool-adapter.error")]).toBe(true);
      expect(MCPAdapterError.isInstance(error)).toBe(true);
    }
    expect(errors[1]!.cause).toBe(cause);
  });

  it("isInstance tells the classes apart, across copies of the package (no instanceof)", () => {
    const [config, connection, notConnected, discovery] = errors;
    expect(MCPConfigError.isInstance(config)).toBe(true);
    expect(MCPConfigError.isInstance(connection)).toBe(false);
    expect(MCPConnectionError.isInstance(connection)).toBe(true);
    expect(MCPNotConnectedError.isInstance(notConnected)).toBe(true);
    expect(MCPNotConnectedError.isInstance(discovery)).toBe(false);
    expect(MCPDiscoveryError.isInstance(discovery)).toBe(true);
    // An error from another copy of the package carries the shared marker and its class's name.
    const foreign = {
      [Symbol.for("mcp-tool-adapter.error")]: true,
      name: "MCPNotConnectedError",
      code: "NOT_CONNECTED",
      message: "x",
    };
    expect(MCPNotConnectedError.isInstance(foreign)).toBe(true);
    expect(MCPDiscoveryError.isInstance(foreign)).toBe(false);
    expect(MCPAdapterError.isInstance({ [Symbol.for("mcp-tool-adapter.error")]: true, code: "DUPLICATE_TOOL" })).toBe(
      false,
    );
    for (const value of [null, undefined, 1, "x", new Error("x"), {}])
      expect(MCPAdapterError.isInstance(value)).toBe(false);
  });

  it("isInstance goes by class, not by code: another package's error with the same code is not the adapter's", () => {
    // transport-stdio's StdioTransportError has CONFIG_INVALID too, transport-http's HttpTransportError CONNECTION_FAILED.
    const stdio = {
      [Symbol.for("mcp-tool-adapter.error")]: true,
      name: "StdioTransportError",
      code: "CONFIG_INVALID",
      message: "x",
    };
    const http = {
      [Symbol.for("mcp-tool-adapter.error")]: true,
      name: "HttpTransportError",
      code: "CONNECTION_FAILED",
      message: "x",
    };
    expect(MCPConfigError.isInstance(stdio)).toBe(false);
    expect(MCPConnectionError.isInstance(http)).toBe(false);
    expect(MCPAdapterError.isInstance(stdio)).toBe(false);
    expect(MCPAdapterError.isInstance(http)).toBe(false);
  });
});
