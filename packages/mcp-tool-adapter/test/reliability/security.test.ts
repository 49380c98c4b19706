import { existsSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { inspect } from "node:util";
import {
  createTempDirectory,
  startFaultHttpServer,
  type FaultHttpServer,
  type FaultPlan,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createSchemaValidator,
  SchemaValidationError,
  type SchemaValidator,
} from "@mcp-tool-adapter/schema-validation";
import { MCPConnectionError, MCPToolAdapter, type Logger } from "../../src/index.js";
import {
  connectWatched,
  hostileAdapter,
  hostileConfig,
  networkActivity,
  resultJson,
  trackAdapter,
  useReliabilityChecks,
} from "./support.js";

useReliabilityChecks();

let temp: TempDirectory;
beforeAll(async () => {
  temp = await createTempDirectory("reliability-security-");
});
afterAll(async () => {
  await temp.remove();
});

/** The whole chain of messages of an error and its causes. */
function messageChain(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth++)
    parts.push(current.message);
  return parts.join(" <- ");
}

describe("security: environment", () => {
  const SECRET_NAME = "MCP_RELIABILITY_PARENT_SECRET";
  const secret = `parent-secret-${randomUUID()}`;
  beforeAll(() => {
    process.env[SECRET_NAME] = secret;
  });
  afterAll(() => {
    Reflect.deleteProperty(process.env, SECRET_NAME);
  });

  it("a secret in the host's environment does not reach a stdio server unless configured", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const seen = resultJson(await adapter.invoke("env", { name: SECRET_NAME })) as {
      present: boolean;
      value: string | null;
    };
    expect(seen).toMatchObject({ present: false, value: null });
    // The safe defaults still arrive (PATH is one of them), so the probe itself works.
    expect((resultJson(await adapter.invoke("env", { name: "PATH" })) as { present: boolean }).present).toBe(true);
  });

  it("a variable named in the config's env does reach the server", async () => {
    const adapter = hostileAdapter({ env: { [SECRET_NAME]: "configured-value" } });
    await connectWatched(adapter);
    const seen = resultJson(await adapter.invoke("env", { name: SECRET_NAME })) as { value: string | null };
    expect(seen.value).toBe("configured-value");
  });
});

describe("security: no shell", () => {
  it("shell metacharacters in args reach the server literally and run nothing", async () => {
    const canary = join(temp.path, "args-canary");
    const hostile = [
      `$(touch ${canary})`,
      `\`touch ${canary}\``,
      `; touch ${canary}`,
      `&& touch ${canary}`,
      `| touch ${canary}`,
      `> ${canary}`,
      "*",
      "~",
      "$HOME",
      "'\"\\",
      "line\nbreak",
      "",
      "--flag=$(id)",
    ];
    const adapter = hostileAdapter({ extraArgs: hostile });
    await connectWatched(adapter);
    const argv = resultJson(await adapter.invoke("argv")) as string[];
    expect(argv.slice(-hostile.length)).toEqual(hostile);
    expect(existsSync(canary)).toBe(false);
  });

  it("shell metacharacters in the command are part of the file name, not a script", async () => {
    const canary = join(temp.path, "command-canary");
    const adapter = trackAdapter(
      new MCPToolAdapter({ ...hostileConfig(), transport: "stdio", command: `${process.execPath}; touch ${canary}` }),
    );
    const error = await adapter.connect({ timeoutMs: 30_000 }).then(
      () => new Error("connect resolved"),
      (failure: unknown) => failure,
    );
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect(existsSync(canary)).toBe(false);
  });
});

/** Every log line and its data, rendered as text (errors with their cause chains). */
function recordingLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const record = (level: string) => (message: string, data?: unknown) => {
    lines.push(`${level} ${message} ${inspect(data, { depth: 8, breakLength: Infinity })}`);
  };
  return {
    logger: { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") },
    text: () => lines.join("\n"),
  };
}

describe("security: header secrets over HTTP", () => {
  const bearer = `sk-live-${randomUUID()}`;
  const apiKey = `key-${randomUUID()}`;
  const queryToken = `qt-${randomUUID()}`;
  const secrets = [bearer, apiKey, queryToken];
  let server: FaultHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  // A hostile server echoes every credential it got back into its answer.
  const echoCredentials =
    (status: number): FaultPlan =>
    (request) => ({
      kind: "status",
      status,
      headers: { "x-echo": String(request.headers.authorization) },
      body: `denied: authorization=${String(request.headers.authorization)} x-api-key=${String(request.headers["x-api-key"])} url=${request.url}`,
    });

  const plans: [string, () => FaultPlan][] = [
    ["401 echoing the credentials", () => echoCredentials(401)],
    ["500 echoing the credentials", () => echoCredentials(500)],
    [
      "JSON-RPC error echoing the credentials",
      () => (request) => ({
        kind: "status",
        status: 200,
        body: {
          jsonrpc: "2.0",
          id: 0,
          error: { code: -32600, message: `bad token ${String(request.headers.authorization)}` },
        },
      }),
    ],
    ["a dropped connection", () => ({ kind: "close" })],
  ];

  for (const transport of ["streamable-http", "sse"] as const) {
    for (const [what, plan] of plans) {
      const title = `${transport}: ${what}`;
      it(`${title}: no secret in the error or any log line`, async () => {
        server = await startFaultHttpServer(plan());
        const { logger, text } = recordingLogger();
        const adapter = trackAdapter(
          new MCPToolAdapter(
            {
              name: "secretive",
              transport,
              url: `${server.url}?token=${queryToken}`,
              headers: { Authorization: `Bearer ${bearer}`, "X-Api-Key": apiKey },
            },
            { logger },
          ),
        );
        const networkBefore = networkActivity.length;
        const error = await adapter.connect({ timeoutMs: 5_000 }).then(
          () => new Error("connect resolved"),
          (failure: unknown) => failure,
        );
        expect(MCPConnectionError.isInstance(error)).toBe(true);
        // The credentials really were sent, so their absence below means redaction.
        expect(server.requests.some((r) => r.headers.authorization === `Bearer ${bearer}`)).toBe(true);
        const everything = `${messageChain(error)}\n${inspect(error, { depth: 8 })}\n${text()}`;
        for (const secret of secrets) expect(everything).not.toContain(secret);
        // Sanity check of the network recorder the stdio suites rely on: it saw these requests.
        expect(networkActivity.slice(networkBefore).some((a) => a.detail.includes("127.0.0.1"))).toBe(true);
      });
    }
  }
});

describe("security: resource limits", () => {
  it("a result larger than maxResultBytes is refused with a clear error", async () => {
    const adapter = hostileAdapter({}, { maxResultBytes: 1024 * 1024 });
    await connectWatched(adapter);
    const result = await adapter.invoke("huge", { mb: 2 });
    expect(result).toMatchObject({ success: false, errorKind: "result_too_large", data: null });
    expect(result.error).toMatch(/too large.*maxResultBytes/);
    // A result under the limit still passes.
    expect((await adapter.invoke("huge", { mb: 0.5 })).success).toBe(true);
  });

  it("maxResultBytes lowers the transport's message limit: an over-limit result is dropped as it streams in", async () => {
    const adapter = hostileAdapter({}, { maxResultBytes: 1024 * 1024 });
    await connectWatched(adapter);
    const result = await adapter.invoke("huge", { mb: 2 });
    expect(result).toMatchObject({ success: false, errorKind: "result_too_large" });
    // The transport dropped it (its maxMessageBytes), not the adapter after buffering it whole.
    expect(result.error).toMatch(/maxResultBytes \(1048576 bytes\).*the transport dropped it.*maxMessageBytes/);
  });

  it("a transport limit set explicitly wins over the one derived from maxResultBytes", async () => {
    const adapter = hostileAdapter(
      {},
      { maxResultBytes: 1024 * 1024, transportOptions: { stdio: { maxMessageBytes: 8 * 1024 * 1024 } } },
    );
    await connectWatched(adapter);
    const result = await adapter.invoke("huge", { mb: 2 });
    expect(result).toMatchObject({ success: false, errorKind: "result_too_large" });
    expect(result.error).toContain("returned more than 1048576 bytes (maxResultBytes)");
    expect(result.error).not.toContain("maxMessageBytes");
  });

  it("a 32 MB result does not grow the host's heap by anything like 32 MB", async () => {
    const adapter = hostileAdapter({}, { maxResultBytes: 1024 * 1024 });
    await connectWatched(adapter);
    // The JS heap is where a buffered result would sit as a string and parsed objects; pipe
    // chunks already read and dropped are external memory awaiting GC, which says nothing.
    const used = (): number => process.memoryUsage().heapUsed;
    const before = used();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, used());
    }, 5);
    const result = await adapter.invoke("huge", { mb: 32 }, { timeoutMs: 60_000 });
    clearInterval(sampler);
    peak = Math.max(peak, used());
    expect(result).toMatchObject({ success: false, errorKind: "result_too_large" });
    expect((peak - before) / 2 ** 20).toBeLessThan(24);
    expect(resultJson(await adapter.invoke("echo", { after: "32 MB" }))).toEqual({ after: "32 MB" });
  });
});

describe("security: schemas never fetch", () => {
  it("a remote $ref is a classified validation error; the validator fetched nothing", async () => {
    const compiled: unknown[] = [];
    const compileErrors: unknown[] = [];
    const real = createSchemaValidator();
    // A validator that records what it is asked, around the real one.
    const recording: SchemaValidator = {
      compile(schema) {
        compiled.push(schema);
        try {
          return real.compile(schema);
        } catch (error) {
          compileErrors.push(error);
          throw error;
        }
      },
      validate(schema, value) {
        compiled.push(schema);
        return real.validate(schema, value);
      },
      get cacheSize() {
        return real.cacheSize;
      },
    };
    const adapter = hostileAdapter({ badSchemas: true }, { validator: recording });
    await connectWatched(adapter);
    const networkBefore = networkActivity.length;
    const result = await adapter.invoke("remote_ref", { value: "x" });
    expect(result).toMatchObject({ success: false, errorKind: "validation" });
    expect(JSON.stringify(compiled)).toContain("https://example.invalid/x.json");
    const refErrors = compileErrors.filter((e) => SchemaValidationError.isInstance(e));
    expect(refErrors.map((e) => e.code)).toContain("SCHEMA_REF_UNRESOLVED");
    expect(networkActivity.slice(networkBefore)).toEqual([]);
  });
});
