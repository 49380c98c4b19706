import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../src/index.js";

export interface LogLine {
  level: string;
  message: string;
  data?: Record<string, unknown>;
}

/** A logger that keeps every line, for assertions on what was logged. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (message: string, data?: Record<string, unknown>): void => {
      lines.push({ level, message, ...(data === undefined ? {} : { data }) });
    };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export function newClient(): Client {
  return new Client({ name: "transport-http-test", version: "1.0.0" });
}

/** Connects an SDK client over `transport` and collects what its onerror reports. */
export async function connectClient(transport: Transport, timeoutMs = 10_000): Promise<Client> {
  const client = newClient();
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}

/** Every text an error exposes: message, stack, and the same for each cause and member. */
export function errorTexts(error: unknown, depth = 0): string[] {
  if (depth > 8 || error === undefined || error === null) return [];
  if (!(error instanceof Error)) return [typeof error === "string" ? error : JSON.stringify(error)];
  const texts = [error.message, error.stack ?? "", String(error)];
  const members = error instanceof AggregateError ? error.errors : [];
  return [
    ...texts,
    ...errorTexts(error.cause, depth + 1),
    ...members.flatMap((member: unknown) => errorTexts(member, depth + 1)),
  ];
}

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
