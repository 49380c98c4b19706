import { describe, expect, it } from "vitest";
import { GatewayError } from "../src/index.js";
import { checkServeStdioContract, sdkServeStdio, type ServeStdioEntry } from "../src/v2-serve-stdio-contract.js";

// The gateway leans on what the v2 SDK's serveStdio does beyond its types (a 2025 product that is
// only connect/close, an SDK 1.x transport as the wire). The check runs the installed SDK's
// serveStdio: this test fails when a new SDK version stops doing it. A serveStdio that does
// something else is refused with a classified error naming the installed version.
describe("the v2 serveStdio contract", () => {
  it("holds for the installed @modelcontextprotocol/server", async () => {
    await expect(checkServeStdioContract()).resolves.toBeUndefined();
  });

  it("refuses a serveStdio that asks its factory for no era, naming the SDK version", async () => {
    const noEra: ServeStdioEntry = (factory, options) =>
      sdkServeStdio((context) => factory({ ...context, era: undefined as never }), options);
    const failure = await checkServeStdioContract({ serveStdio: noEra }).catch((error: unknown) => error);
    expect(GatewayError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "SDK_INCOMPATIBLE" });
    expect((failure as Error).message).toMatch(
      /@modelcontextprotocol\/server 2\.\d+\.\d+ .*factory was asked for \[null\]/,
    );
  });

  it("refuses a serveStdio that uses more of the 2025 product than connect and close", async () => {
    const wantsServer: ServeStdioEntry = (factory, options) =>
      sdkServeStdio((context) => {
        const product = factory(context) as { server?: { getCapabilities(): unknown } };
        // A future SDK reading a v2 server's capabilities off every product.
        product.server!.getCapabilities();
        return product;
      }, options);
    await expect(checkServeStdioContract({ serveStdio: wantsServer })).rejects.toMatchObject({
      code: "SDK_INCOMPATIBLE",
      message: expect.stringContaining("it reported") as unknown,
    });
  });

  it("refuses a serveStdio that never serves the opening message, within the time given", async () => {
    const silent: ServeStdioEntry = (_factory, options) => {
      options.transport.onmessage = () => undefined;
      void options.transport.start();
      return { close: () => options.transport.close() };
    };
    await expect(checkServeStdioContract({ serveStdio: silent, timeoutMs: 200 })).rejects.toMatchObject({
      code: "SDK_INCOMPATIBLE",
      message: expect.stringContaining("nothing happened within 200 ms") as unknown,
    });
  });
});
