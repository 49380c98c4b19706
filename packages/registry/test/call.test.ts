import { describe, expect, it } from "vitest";
import { ToolRegistry, type ToolCallContext, type ToolHandler } from "../src/index.js";
import { toolDefinition } from "./tool-definition.js";

function registryWith(handler: ToolHandler, now?: () => number): ToolRegistry {
  const registry = new ToolRegistry(now ? { now } : {});
  registry.register("ns", toolDefinition("t", { handler }));
  return registry;
}

describe("call", () => {
  it("passes args and the context (signal) to the handler and returns its result", async () => {
    let received: { args: Record<string, unknown>; context: ToolCallContext } | undefined;
    const registry = registryWith((args, context) => {
      received = { args, context };
      return { success: true, data: { echoed: args.text } };
    });
    const controller = new AbortController();
    const result = await registry.call("ns/t", { text: "hi" }, { signal: controller.signal });
    expect(result).toMatchObject({ success: true, data: { echoed: "hi" } });
    expect(received?.args).toEqual({ text: "hi" });
    expect(received?.context.signal).toBe(controller.signal);
  });

  it("gives the handler empty args and an empty context when none are passed", async () => {
    let received: unknown[] = [];
    const registry = registryWith((args, context) => {
      received = [args, context];
      return { success: true };
    });
    await registry.call("ns/t");
    expect(received).toEqual([{}, {}]);
  });

  it("lets the handler see an abort of the caller's signal", async () => {
    const registry = registryWith(
      (_args, { signal }) =>
        new Promise((resolve) => {
          signal?.addEventListener("abort", () =>
            resolve({ success: false, error: "cancelled", errorKind: "cancelled" }),
          );
        }),
    );
    const controller = new AbortController();
    const pending = registry.call("ns/t", {}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ success: false, errorKind: "cancelled" });
  });

  it("says not_found for an unknown name, without throwing", async () => {
    const result = await new ToolRegistry().call("ns/missing");
    expect(result).toMatchObject({ success: false, errorKind: "not_found" });
    expect(result.error).toContain('Tool "ns/missing" not found');
  });

  it("says not_found for a name that is not even a string (JavaScript callers)", async () => {
    const result = await new ToolRegistry().call(42 as unknown as string);
    expect(result).toMatchObject({
      success: false,
      errorKind: "not_found",
      error: expect.stringContaining("Tool (number) not found") as string,
    });
  });

  it.each<[string, ToolHandler, string]>([
    [
      "throws synchronously",
      () => {
        throw new Error("boom");
      },
      'Tool "ns/t" failed: boom',
    ],
    ["rejects", () => Promise.reject(new TypeError("async boom")), 'Tool "ns/t" failed: async boom'],
    [
      "throws a string",
      () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a handler from JavaScript may throw anything
        throw "plain string";
      },
      'Tool "ns/t" failed: plain string',
    ],
    [
      "rejects with an unprintable value",
      () => Promise.reject(Object.create(null) as Error),
      'Tool "ns/t" failed: a value that cannot be printed',
    ],
    [
      "throws an Error without a message",
      () => {
        throw new RangeError();
      },
      'Tool "ns/t" failed: RangeError',
    ],
    [
      "returns undefined",
      (() => undefined) as unknown as ToolHandler,
      "returned undefined instead of a ToolCallResult",
    ],
    ["returns null", (() => null) as unknown as ToolHandler, "returned null instead of a ToolCallResult"],
    ["returns a number", (() => 42) as unknown as ToolHandler, "returned number instead of a ToolCallResult"],
    ["returns an array", (() => []) as unknown as ToolHandler, "returned an array instead of a ToolCallResult"],
    [
      "resolves to an object without success",
      (() => Promise.resolve({ data: 1 })) as unknown as ToolHandler,
      "an object without a boolean `success`",
    ],
  ])("returns handler_error when the handler %s", async (_label, handler, message) => {
    const result = await registryWith(handler).call("ns/t", {});
    expect(result.success).toBe(false);
    expect(result.errorKind).toBe("handler_error");
    expect(result.error).toContain(message);
    expect(typeof result.durationMs).toBe("number");
  });

  it("measures durationMs with the injected clock unless the handler reports its own", async () => {
    let time = 1_000;
    const clock = (): number => time;
    const measured = registryWith(() => {
      time += 25;
      return { success: true };
    }, clock);
    expect((await measured.call("ns/t")).durationMs).toBe(25);

    const reported = registryWith(() => ({ success: true, durationMs: 7 }), clock);
    expect((await reported.call("ns/t")).durationMs).toBe(7);
  });

  it("passes a handler's own failure result through", async () => {
    const result = await registryWith(() => ({
      success: false,
      error: "server error: nope",
      errorKind: "server_error",
    })).call("ns/t");
    expect(result).toMatchObject({ success: false, error: "server error: nope", errorKind: "server_error" });
  });

  it("keeps running a call whose tool is replaced meanwhile, and uses the new tool for the next call", async () => {
    let release: () => void = () => undefined;
    const registry = registryWith(
      () => new Promise((resolve) => (release = () => resolve({ success: true, data: "old" }))),
    );
    const pending = registry.call("ns/t");
    registry.replaceNamespace("ns", [toolDefinition("t", { handler: () => ({ success: true, data: "new" }) })]);
    release();
    expect((await pending).data).toBe("old");
    expect((await registry.call("ns/t")).data).toBe("new");
  });
});
