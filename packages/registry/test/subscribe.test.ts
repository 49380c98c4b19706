import { describe, expect, it } from "vitest";
import { ToolRegistry, type Logger, type RegistryChange } from "../src/index.js";
import { toolDefinition } from "./tool-definition.js";

describe("subscribe", () => {
  it("reports every mutation as added / removed / changed full names", () => {
    const registry = new ToolRegistry();
    const changes: RegistryChange[] = [];
    registry.subscribe((change) => changes.push(change));

    registry.register("a", toolDefinition("one"));
    registry.replaceNamespace("a", [toolDefinition("one", { description: "new" }), toolDefinition("two")]);
    registry.unregister("a/two");
    registry.unregisterNamespace("a");

    expect(changes).toEqual([
      { namespace: "a", added: ["a/one"], removed: [], changed: [] },
      { namespace: "a", added: ["a/two"], removed: [], changed: ["a/one"] },
      { namespace: "a", added: [], removed: ["a/two"], changed: [] },
      { namespace: "a", added: [], removed: ["a/one"], changed: [] },
    ]);
  });

  it("stays quiet when nothing changed", () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("a", [toolDefinition("one")]);
    const changes: RegistryChange[] = [];
    registry.subscribe((change) => changes.push(change));
    registry.replaceNamespace("a", [toolDefinition("one")]);
    registry.unregister("a/missing");
    registry.unregisterNamespace("missing");
    expect(changes).toEqual([]);
  });

  it("stops after unsubscribe, and a function subscribed twice is called twice", () => {
    const registry = new ToolRegistry();
    let calls = 0;
    const listener = (): void => {
      calls += 1;
    };
    const first = registry.subscribe(listener);
    registry.subscribe(listener);
    registry.register("a", toolDefinition("one"));
    expect(calls).toBe(2);
    first();
    first();
    registry.register("a", toolDefinition("two"));
    expect(calls).toBe(3);
  });

  it("survives a throwing listener: the mutation stands, later listeners still hear it, the logger is told", () => {
    const warnings: { message: string; data: unknown }[] = [];
    const logger: Logger = { warn: (message, data) => warnings.push({ message, data }) };
    const registry = new ToolRegistry({ logger });
    const heard: string[] = [];
    registry.subscribe(() => {
      throw new Error("listener bug");
    });
    registry.subscribe((change) => heard.push(...change.added));

    expect(registry.register("a", toolDefinition("one")).name).toBe("a/one");
    expect(registry.has("a/one")).toBe(true);
    expect(heard).toEqual(["a/one"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("listener threw");
    expect((warnings[0]?.data as { error: Error }).error.message).toBe("listener bug");

    // Without a logger the failure is dropped and the registry carries on too.
    const quiet = new ToolRegistry();
    quiet.subscribe(() => {
      throw new Error("ignored");
    });
    expect(() => quiet.replaceNamespace("a", [toolDefinition("one")])).not.toThrow();
    expect(quiet.size).toBe(1);
  });

  it("gives each listener its own copy of the change", () => {
    const registry = new ToolRegistry();
    const seen: RegistryChange[] = [];
    registry.subscribe((change) => {
      change.added.push("tampered");
    });
    registry.subscribe((change) => seen.push(change));
    const returned = registry.replaceNamespace("a", [toolDefinition("one")]);
    expect(seen[0]?.added).toEqual(["a/one"]);
    expect(returned.added).toEqual(["a/one"]);
  });

  it("copes with listeners that unsubscribe or mutate the registry while being notified", () => {
    const registry = new ToolRegistry();
    const order: string[] = [];
    const unsubscribe = registry.subscribe((change) => {
      order.push(`first:+${change.added.join(",")}-${change.removed.join(",")}`);
      unsubscribe();
      registry.unregister("a/one");
    });
    registry.subscribe((change) => order.push(`second:+${change.added.join(",")}-${change.removed.join(",")}`));
    registry.register("a", toolDefinition("one"));
    // The removal made inside a listener is delivered after everyone has heard the addition.
    expect(order).toEqual(["first:+a/one-", "second:+a/one-", "second:+-a/one"]);
    expect(registry.size).toBe(0);
  });
});
