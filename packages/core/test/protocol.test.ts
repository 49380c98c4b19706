import { describe, expect, it } from "vitest";
import {
  isAnsweredRequest,
  MCP_ANSWERED_REQUEST_METHODS,
  MCP_ANSWERED_REQUESTS,
  MCP_FOLLOWED_NOTIFICATIONS,
} from "@mcp-tool-adapter/core/protocol";

describe("the protocol lists every engine takes", () => {
  it("names the five notifications the adapter follows", () => {
    expect([...MCP_FOLLOWED_NOTIFICATIONS]).toEqual([
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
      "notifications/resources/updated",
      "notifications/prompts/list_changed",
      "notifications/message",
    ]);
  });

  it("names the requests the adapter answers, each with the client capability it needs", () => {
    expect(MCP_ANSWERED_REQUESTS).toEqual({
      "elicitation/create": "elicitation",
      "sampling/createMessage": "sampling",
      "roots/list": "roots",
      "tasks/get": "tasks",
      "tasks/result": "tasks",
      "tasks/list": "tasks",
      "tasks/cancel": "tasks",
    });
    expect(MCP_ANSWERED_REQUEST_METHODS).toEqual([
      "elicitation/create",
      "sampling/createMessage",
      "roots/list",
      "tasks/get",
      "tasks/result",
      "tasks/list",
      "tasks/cancel",
    ]);
  });

  it("tells an answerable request from any other method, inherited object keys included", () => {
    expect(isAnsweredRequest("roots/list")).toBe(true);
    expect(isAnsweredRequest("ping")).toBe(false);
    expect(isAnsweredRequest("tools/call")).toBe(false);
    expect(isAnsweredRequest("constructor")).toBe(false);
    expect(isAnsweredRequest("toString")).toBe(false);
  });
});
