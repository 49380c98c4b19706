import { ToolRegistry, type ToolCallResult } from "@mcp-tool-adapter/registry";
import { newQuickJSWASMModuleFromVariant, TestQuickJSWASMModule } from "quickjs-emscripten-core";
import { afterEach, describe, expect, it } from "vitest";
import { bindApi, createCodeMode, type CodeMode, type CodeRunResult } from "../src/index.js";
import { resolveSandboxLimits } from "../src/sandbox/limits.js";
import { runProgram } from "../src/sandbox/run-program.js";
import { toToolCallOutcome } from "../src/tool-outcome.js";

const SLOW_TEST_MS = 60_000;

/**
 * CPU time of the thread running the program, ms: this thread's own where Node has it (24), else
 * the process's (20, 22), which still does not advance while the process waits for a core.
 */
function testThreadCpuMs(): number {
  const { user, system } =
    (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return (user + system) / 1000;
}

/** A real registry with tools whose handlers the tests can read back. */
function demoRegistry(): { registry: ToolRegistry; received: unknown[] } {
  const registry = new ToolRegistry();
  const received: unknown[] = [];
  const base = {
    source: "test",
    sourceMetadata: {},
    checkpointable: false,
    capabilities: { readOnly: true, writes: false },
  };
  registry.register("demo", {
    ...base,
    name: "echo",
    description: "Returns its arguments",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    handler: (args): ToolCallResult => {
      received.push(args);
      return { success: true, data: { echoed: args } };
    },
  });
  registry.register("demo", {
    ...base,
    name: "fail-always",
    description: "Always fails",
    inputSchema: { type: "object" },
    handler: (): ToolCallResult => ({ success: false, error: "the server said no", errorKind: "server_error" }),
  });
  registry.register("demo", {
    ...base,
    name: "big",
    description: "Returns a large text",
    inputSchema: { type: "object" },
    handler: (): ToolCallResult => ({ success: true, data: "y".repeat(200_000) }),
  });
  return { registry, received };
}

let codeMode: CodeMode | undefined;
afterEach(() => {
  codeMode?.close();
  codeMode = undefined;
});

/**
 * One program over the demo tools. The CPU budget is the default 2 s: it is wall time in the
 * interpreter, and a fresh worker's first slices run cold on a loaded CI machine; the loop tests
 * set their own.
 */
async function run(source: string, limits = {}): Promise<CodeRunResult> {
  const { registry } = demoRegistry();
  codeMode = await createCodeMode(registry, { limits: { memoryBytes: 8 * 1024 * 1024, ...limits } });
  return codeMode.run(source);
}

describe("programs in the sandbox", () => {
  it("runs TypeScript-flavoured code with top-level await, chained calls and console", async () => {
    const { registry, received } = demoRegistry();
    codeMode = await createCodeMode(registry);
    const result = await codeMode.run(`
      interface Echo { echoed: { text: string } }
      const first = (await demo.echo({ text: "one" })) as Echo;
      const second = (await demo.echo({ text: first.echoed.text + "+two" })) as Echo;
      console.log("first", first);
      console.warn("done");
      return { last: second.echoed.text };
    `);
    expect(result).toMatchObject({ ok: true, value: { last: "one+two" }, toolCalls: 2 });
    expect(result.logs).toEqual(['first {"echoed":{"text":"one"}}', "[warn] done"]);
    expect(received).toEqual([{ text: "one" }, { text: "one+two" }]);
  });

  it("turns a failed call into a ToolCallError with its errorKind, which the program may catch", async () => {
    const uncaught = await run("await demo.fail_always({});");
    expect(uncaught.error).toMatchObject({
      code: "tool_call_failed",
      errorKind: "server_error",
      tool: "demo.fail_always",
    });
    expect(uncaught.error?.message).toContain("the server said no");
    const caught = await run(
      "try { await demo.fail_always({}); } catch (e) { return [e instanceof ToolCallError, e.errorKind]; }",
    );
    expect(caught).toMatchObject({ ok: true, value: [true, "server_error"] });
  });

  it("refuses an empty tool namespace with a classified error", async () => {
    const { registry } = demoRegistry();
    await expect(createCodeMode(registry, { toolNamespace: "" })).rejects.toMatchObject({
      name: "CodeModeError",
      code: "INVALID_OPTIONS",
    });
  });

  it("reports a syntax error with the model's own line number", async () => {
    const result = await run("const ok = 1;\nconst broken = ;");
    expect(result.error?.code).toBe("syntax_error");
    expect(result.error?.message).toContain("line 2");
  });

  it("refuses a program that returns something that is not JSON data", async () => {
    const result = await run("const o: any = {}; o.self = o; return o;");
    expect(result.error?.code).toBe("result_not_serializable");
  });

  it("reports a program that waits on a promise nothing settles", async () => {
    const result = await run("await new Promise(() => {});");
    expect(result.error?.code).toBe("never_settles");
  });

  it("stops at the caller's abort signal", async () => {
    const { registry } = demoRegistry();
    codeMode = await createCodeMode(registry);
    const controller = new AbortController();
    controller.abort(new Error("user pressed stop"));
    const result = await codeMode.run("await demo.echo({}); return 1;", { signal: controller.signal });
    expect(result.ok).toBe(false);
    expect(result.error?.message).toContain("user pressed stop");
  });
});

describe("hostile programs are refused while the host goes on", () => {
  it(
    "an infinite loop, even one that catches",
    async () => {
      for (const source of ["while (true) {}", "for (;;) { try { while (true) {} } catch { } }"]) {
        const result = await run(source, { cpuTimeMs: 500 });
        expect(result.error?.code).toBe("cpu_time_limit");
      }
    },
    SLOW_TEST_MS,
  );

  it(
    "a memory bomb",
    async () => {
      for (const source of [
        'let s = "x"; while (true) s = s + s;',
        "const a = []; while (true) a.push({ n: a.length });",
      ]) {
        const result = await run(source, { cpuTimeMs: 20_000 });
        expect(result.error?.code).toBe("memory_limit");
      }
    },
    SLOW_TEST_MS,
  );

  it("deep recursion", async () => {
    const result = await run("function down(n: number): number { return down(n + 1) + 1; } return down(0);");
    expect(result.error?.code).toBe("stack_overflow");
  });

  it("reaching for the host's process, require, globalThis and timers", async () => {
    const result = await run(`
      const g: any = globalThis;
      return [typeof process, typeof require, typeof g.process, typeof g.global, typeof setTimeout, typeof fetch,
        typeof g.__mcp_call, typeof g.__mcp_log, Object.keys(g).filter((k) => k !== "console").sort().join(",")];
    `);
    expect(result.value).toEqual([
      "undefined",
      "undefined",
      "undefined",
      "undefined",
      "undefined",
      "undefined",
      "undefined",
      "undefined",
      "ToolCallError,demo",
    ]);
    const direct = await run("process.exit(1);");
    expect(direct.error).toMatchObject({ code: "program_error" });
    expect(direct.error?.message).toMatch(/process'? is not defined/);
  });

  it("Function and eval tricks find only the sandbox's own global", async () => {
    const result = await run(`
      const viaFunction = Function("return this")();
      const viaConstructor = (() => {}).constructor.constructor("return typeof process")();
      const viaEval = (0, eval)("typeof require");
      const viaAsync = (async () => {}).constructor("return typeof process");
      return [typeof viaFunction.process, viaConstructor, viaEval, await viaAsync()];
    `);
    expect(result.value).toEqual(["undefined", "undefined", "undefined", "undefined"]);
    const escape = await run('return (() => {}).constructor.constructor("return process.mainModule")();');
    expect(escape.error?.message).toMatch(/process'? is not defined/);
  });

  it("prototype pollution stays inside the sandbox", async () => {
    const result = await run(`
      (Object.prototype as any).polluted = "yes";
      (Array.prototype as any).push = () => 0;
      JSON.parse = () => ({ hacked: true });
      const echoed = await demo.echo(JSON.parse('{"__proto__": {"polluted": "via args"}}'));
      return "done";
    `);
    expect(result.ok).toBe(true);
    const fresh: Record<string, unknown> = {};
    expect(fresh["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.prototype).not.toHaveProperty("hacked");
    expect([1].push(2)).toBe(2);
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 });
  });

  it(
    "a flood of tool calls, caught or not",
    async () => {
      for (const source of [
        "for (let i = 0; i < 1000; i++) await demo.echo({});",
        "for (let i = 0; i < 1000; i++) { try { await demo.echo({}); } catch { } }",
        "await Promise.all(Array.from({ length: 1000 }, () => demo.echo({})));",
      ]) {
        const result = await run(source, { maxToolCalls: 10 });
        expect(result.error?.code).toBe("too_many_tool_calls");
        expect(result.toolCalls).toBe(10);
      }
    },
    SLOW_TEST_MS,
  );

  it("a huge return value, and a huge tool result kept inside", async () => {
    const result = await run('return "x".repeat(50000);', { maxResultChars: 1000 });
    expect(result.error).toMatchObject({ code: "result_too_large" });
    expect(result.error?.message).toContain("50002 characters");
    const summarised = await run("const text = (await demo.big({})) as string; return text.length;", {
      maxResultChars: 1000,
    });
    expect(summarised).toMatchObject({ ok: true, value: 200_000 });
  });

  it("a console flood is cut at the log budget and counted", async () => {
    const result = await run('for (let i = 0; i < 1000; i++) console.log("line " + i); return "ok";', {
      maxLogChars: 100,
    });
    expect(result.ok).toBe(true);
    expect(result.logs.join("\n").length).toBeLessThanOrEqual(100);
    expect(result.droppedLogLines).toBeGreaterThan(900);
  });

  it("a time limit over pending tool calls", async () => {
    const registry = new ToolRegistry();
    registry.register("slow", {
      name: "wait",
      description: "Never answers until aborted",
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "test",
      sourceMetadata: {},
      checkpointable: false,
      handler: (_args, context) =>
        new Promise<ToolCallResult>((resolve) => {
          context.signal?.addEventListener("abort", () =>
            resolve({ success: false, error: "aborted", errorKind: "cancelled" }),
          );
        }),
    });
    codeMode = await createCodeMode(registry, { limits: { totalTimeMs: 300 } });
    const result = await codeMode.run("await slow.wait({});");
    expect(result.error?.code).toBe("total_time_limit");
  });
});

describe("no QuickJS memory is left behind", () => {
  // What the sandbox worker runs, run here on the test's thread: the debug build's leak checks
  // need the module in hand, and a worker keeps its module to itself.
  it("disposes every runtime, context and handle, whatever the program did", { timeout: SLOW_TEST_MS }, async () => {
    const module = new TestQuickJSWASMModule(
      await newQuickJSWASMModuleFromVariant(import("@jitl/quickjs-wasmfile-debug-sync")),
    );
    const { registry } = demoRegistry();
    const api = bindApi(registry.list()).table;
    const warnings: unknown[] = [];
    const programs = [
      "return await demo.echo({ text: 'a' });",
      "while (true) {}",
      "for (let i = 0; i < 100; i++) await demo.echo({});",
      "await demo.fail_always({});",
      "const pending = demo.echo({}); throw new Error('left a call in flight');",
      "await new Promise(() => {});",
      'return "x".repeat(100000);',
    ];
    const codes: (string | undefined)[] = [];
    for (const source of programs) {
      const result = await runProgram({
        source,
        api,
        callTool: async (id, args, signal) =>
          toToolCallOutcome(await registry.call(id, args as Record<string, unknown>, { signal })),
        // The debug build is slow: a budget no ordinary program here meets, on a CPU clock so that
        // a loaded machine (waiting for a core) cannot spend it.
        limits: resolveSandboxLimits({ cpuTimeMs: 3_000, maxToolCalls: 5 }),
        quickjs: module as never,
        now: () => performance.now(),
        cpuNow: testThreadCpuMs,
        logger: { warn: (message, data) => warnings.push([message, data]) },
      });
      codes.push(result.error?.code);
    }
    expect(codes).toEqual([
      undefined,
      "cpu_time_limit",
      "too_many_tool_calls",
      "tool_call_failed",
      "program_error",
      "never_settles",
      "result_too_large",
    ]);
    expect(warnings).toEqual([]);
    // The debug build's leak sanitizer: every QuickJS allocation of every run was freed.
    expect(module.getFFI().QTS_RecoverableLeakCheck()).toBe(0);
    // TestQuickJSWASMModule tracks each runtime; its own count misses runtimes made by newRuntime
    // (0.31 runs no owned lifetimes there), so each one's own flag says it was disposed.
    const runtimes = (module as unknown as { runtimes: Set<{ alive: boolean }> }).runtimes;
    expect(runtimes.size).toBe(programs.length);
    expect([...runtimes].filter((runtime) => runtime.alive)).toEqual([]);
  });
});
