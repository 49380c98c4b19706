import type { MCPEngineMessage } from "@mcp-tool-adapter/core";
import type { Session } from "../session.js";

/**
 * Handles one notification method; `session` is undefined while the connection is still being
 * opened (a handler that needs the session waits for the next list or discovery instead).
 */
export type NotificationHandler = (params: MCPEngineMessage["params"], session: Session | undefined) => void;

/**
 * The routing table of the server's notifications: each feature (tool sync, resources, prompts,
 * server logs) registers the methods it follows, and the connection layer hands every
 * notification the engine delivers to the one handler of its method. A method nobody registered
 * is ignored.
 */
export class NotificationRoutes {
  readonly #handlers = new Map<string, NotificationHandler>();

  /** Routes `method` to `handler`; a method has one handler, so a second registration is a bug. */
  on(method: string, handler: NotificationHandler): void {
    if (this.#handlers.has(method)) throw new Error(`The notification "${method}" already has a handler.`);
    this.#handlers.set(method, handler);
  }

  route(message: MCPEngineMessage, session: Session | undefined): void {
    this.#handlers.get(message.method)?.(message.params, session);
  }
}
