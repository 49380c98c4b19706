import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { CallToolRequestSchema, CallToolResultSchema, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { listenHttp, serveStdio } from "../src/index.js";
import { gatewayForFile, linesOf } from "./fixtures.js";

// Issue 34: the gateway adds no more than one parse and one serialization per message. A tools/call
// goes client → gateway → server-everything (real stdio) and back; the gateway, in this process,
// should parse the client's request once, serialize it once toward the upstream, parse the upstream's
// answer once and serialize it once toward the client. JSON.parse and JSON.stringify are counted
// while the calls run, only for the text that carries this test's marker, so whatever else runs in
// the process (vitest's own messages) is not counted. The SDK's zod schemas for the whole message
// (the envelope, the tools/call request, its result) are counted too: the gateway runs none of them.
const MARKER = "parse-count-probe";
const CALLS = 20;

const running = gatewayForFile(["everything"]);

describe("parses and serializations per message", () => {
  it("parses and serializes each tools/call request and its answer once in the gateway", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = linesOf(stdout);
    const served = await serveStdio(running.gateway, { stdin, stdout });
    // Answers are told apart from the upstream's log notifications without parsing them (a parse here would be counted).
    const answered = (): string[] => lines.filter((text) => text.includes('"id":'));
    const wait = async (count: number): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while (answered().length < count && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const line = (message: object): string => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
    stdin.write(
      line({
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "parse-count", version: "1" } },
      }) + line({ method: "notifications/initialized" }),
    );
    await wait(1);
    // The request lines are written before counting starts: the client's serialization is not the gateway's.
    const requests = Array.from({ length: CALLS }, (_, index) =>
      line({
        id: index + 1,
        method: "tools/call",
        params: { name: "echo", arguments: { message: `${MARKER} ${index + 1}` } },
      }),
    );
    const counts = countJson(MARKER);
    const validations = countValidations([CallToolRequestSchema, CallToolResultSchema, JSONRPCMessageSchema]);
    try {
      for (const [index, request] of requests.entries()) {
        stdin.write(request);
        await wait(index + 2);
      }
    } finally {
      counts.stop();
      validations.stop();
    }
    const answers = answered()
      .slice(1)
      .map((text) => JSON.parse(text) as { id: number; result?: { content?: unknown } });
    expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: CALLS }, (_, index) => index + 1));
    for (const answer of answers) expect(JSON.stringify(answer.result?.content)).toContain(`${MARKER} ${answer.id}`);
    // Two messages per call cross the gateway (the request and its answer): each parsed once and serialized once.
    expect(counts.parses).toBe(2 * CALLS);
    expect(counts.serializations).toBe(2 * CALLS);
    // And no schema walk of the whole message: the SDK Server's zod parse of each request and result is skipped.
    expect(validations.count).toBe(0);
    await served.connection.close();
  }, 60_000);

  it("parses and serializes each tools/call request and its answer once over HTTP too", async () => {
    const http = await listenHttp(running.gateway);
    try {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      const initialized = await post(http.url, headers, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "parse-count", version: "1" } },
      });
      headers["mcp-session-id"] = String(initialized.headers["mcp-session-id"]);
      headers["mcp-protocol-version"] = "2025-06-18";
      await post(http.url, headers, { jsonrpc: "2.0", method: "notifications/initialized" });
      // The bodies are serialized before counting starts: the client's serialization is not the gateway's.
      const bodies = Array.from({ length: CALLS }, (_, index) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id: index + 1,
          method: "tools/call",
          params: { name: "echo", arguments: { message: `${MARKER} ${index + 1}` } },
        }),
      );
      const texts: string[] = [];
      const counts = countJson(MARKER);
      const validations = countValidations([CallToolRequestSchema, CallToolResultSchema, JSONRPCMessageSchema]);
      try {
        for (const body of bodies) texts.push((await post(http.url, headers, body)).text);
      } finally {
        counts.stop();
        validations.stop();
      }
      const answers = texts.map((text) => JSON.parse(text) as { id: number; result?: { content?: unknown } });
      expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: CALLS }, (_, index) => index + 1));
      for (const answer of answers) expect(JSON.stringify(answer.result?.content)).toContain(`${MARKER} ${answer.id}`);
      expect(counts.parses).toBe(2 * CALLS);
      expect(counts.serializations).toBe(2 * CALLS);
      expect(validations.count).toBe(0);
    } finally {
      await http.close();
    }
  }, 60_000);
});

/** Counts JSON.parse calls whose text, and JSON.stringify calls whose output, contain `marker`, until stop(). */
function countJson(marker: string): { parses: number; serializations: number; stop(): void } {
  const { parse, stringify } = JSON;
  const counts = {
    parses: 0,
    serializations: 0,
    stop: () => {
      JSON.parse = parse;
      JSON.stringify = stringify;
    },
  };
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]): unknown => {
    if (typeof text === "string" && text.includes(marker)) counts.parses += 1;
    return parse(text, reviver) as unknown;
  }) as typeof JSON.parse;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    const text = stringify(...args);
    if (typeof text === "string" && text.includes(marker)) counts.serializations += 1;
    return text;
  }) as typeof JSON.stringify;
  return counts;
}

/**
 * Counts runs of the given zod (v4) schemas until stop(): every parse and safeParse of a schema goes
 * through its `_zod.run`, which is wrapped here (zod's internals: a test-only look at what runs).
 */
function countValidations(schemas: readonly object[]): { count: number; stop(): void } {
  type Runnable = { _zod: { run: (...args: unknown[]) => unknown } };
  const counter = { count: 0, stop: (): void => undefined };
  const restores = schemas.map((schema) => {
    const internals = (schema as Runnable)._zod;
    const run = internals.run;
    internals.run = function (this: unknown, ...args: unknown[]) {
      counter.count += 1;
      return run.apply(this, args);
    };
    return () => {
      internals.run = run;
    };
  });
  counter.stop = () => {
    for (const restore of restores) restore();
  };
  return counter;
}

/** One POST (a string body is sent as it is); resolves with the answer's headers and text once complete. */
function post(
  url: string,
  headers: Record<string, string>,
  body: string | object,
): Promise<{ headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    request.once("error", reject);
    request.end(typeof body === "string" ? body : JSON.stringify(body));
  });
}
