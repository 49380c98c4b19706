import * as assert from "node:assert/strict";

/** Case-insensitive "contains", failing with both strings in the message. */
export function assertMentions(text: string | null | undefined, expected: string, what: string): void {
  assert.ok(
    typeof text === "string" && text.toLowerCase().includes(expected.toLowerCase()),
    `Expected ${what} to mention "${expected}", got: ${JSON.stringify(text)}`,
  );
}

/** Parses a step's inline JSON arguments, which must be an object. */
export function parseArguments(json: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(json);
  assert.ok(
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed),
    `Tool arguments must be a JSON object, got ${json}`,
  );
  return parsed as Record<string, unknown>;
}

/** Runs `action` and returns what it threw; fails when it does not throw. */
export async function captureError(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  assert.fail("Expected the step to throw an error, but it completed normally.");
}
