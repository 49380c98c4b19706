import type { StandardSchemaV1 } from "@modelcontextprotocol/client";

/**
 * MCP tasks (2025-11-25) on this engine. SDK v2's Client moved tasks out of its core: its
 * tools/call result schema refuses a CreateTaskResult, and `tasks/*` are no longer methods it
 * types. The adapter drives the protocol's own task methods itself (tools/call with `task`, then
 * `tasks/result`, which the server blocks until the task ends and on which it delivers the task's
 * elicitation and sampling requests; `tasks/cancel` for a call given up on), so these requests go
 * through the Client's schema-taking `request` with a schema that only asks for a JSON object,
 * and the adapter checks what it reads (`createdTaskId`, the result's own checks).
 *
 * The official extension `@modelcontextprotocol/ext-tasks` (0.2.x) was tried first: its 2025-11-25
 * driver polls `tasks/get` and never calls `tasks/result` while a task is `input_required`, so a
 * task that asks for input (server-everything's `simulate-research-query`) never finishes.
 */

/** The requests of the task protocol a client sends. */
const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);

/** Whether a request belongs to the task protocol: tools/call asking for a task, or a `tasks/*` method. */
export function isTaskRequest(method: string, params: Record<string, unknown> | undefined): boolean {
  return TASK_METHODS.has(method) || (method === "tools/call" && params?.task !== undefined);
}

/** A schema that accepts any JSON object: the task protocol's results and the params of the task requests we answer. */
export const JSON_OBJECT_SCHEMA: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "@mcp-tool-adapter/engine-2026",
    validate: (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: "Expected a JSON object" }] },
  },
};

/** The server-to-client requests a 2025 server may ask us to run as a task (MCP 2025-11-25). */
const TASKABLE_REQUESTS: ReadonlySet<string> = new Set(["elicitation/create", "sampling/createMessage"]);

/** Whether a server may ask for `method` to run as a task on the 2025 era. */
export function isTaskableRequest(method: string): boolean {
  return TASKABLE_REQUESTS.has(method);
}
