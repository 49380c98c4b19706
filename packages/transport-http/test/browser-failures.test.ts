import { describe, expect, it } from "vitest";
import { createSseTransport, createStreamableHttpTransport, HttpTransportError } from "../src/index.js";
import { newClient, rejectionOf } from "./helpers.js";

// A browser's fetch reports a network failure with its own message and no cause: Chrome says
// "Failed to fetch", Firefox "NetworkError when attempting to fetch resource.", Safari "Load
// failed". They are the same failure as Node's "fetch failed" and get the same code.

const browserMessages = ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed"];

/** A fetch that fails as a browser's does when the server cannot be reached. */
const browserFetch = (message: string) => (): Promise<Response> => Promise.reject(new TypeError(message));

describe.each([
  { kind: "streamable-http", create: createStreamableHttpTransport },
  { kind: "sse", create: createSseTransport },
] as const)("$kind in a browser", ({ create }) => {
  it.each(browserMessages)("classifies fetch's '%s' as CONNECTION_FAILED", async (message) => {
    const transport = create({ url: "https://mcp.example.com/mcp" }, { fetch: browserFetch(message) });
    const client = newClient();
    const error = await rejectionOf(client.connect(transport, { timeout: 5_000 }));
    await client.close();
    expect(HttpTransportError.isInstance(error) && error.code).toBe("CONNECTION_FAILED");
    expect((error as Error).message).toContain("https://mcp.example.com/mcp");
    expect((error as Error).message).toContain(message);
  });
});
