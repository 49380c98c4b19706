import { describeCause } from "@mcp-tool-adapter/core";
import { isIpcRequest, type CommandShapes, type IpcRequest, type IpcWorkerMessage } from "./ipc-protocol.js";

/** One handler per command; each gets the command's params and resolves with its result. */
export type CommandHandlers<Commands extends CommandShapes<Commands>> = {
  readonly [Name in keyof Commands]: (
    params: Commands[Name]["params"],
  ) => Promise<Commands[Name]["result"]> | Commands[Name]["result"];
};

export interface ServeIpcOptions {
  /**
   * Runs when the parent goes away (it closed the channel or died): release what the worker
   * holds, e.g. close a client so its server process ends. The worker then exits.
   */
  onDisconnect?: () => Promise<void>;
  /** How long `onDisconnect` may take before the worker exits anyway. Default 10 s. */
  disconnectGraceMs?: number;
}

/**
 * Worker side of startIpcWorker: answers the parent's requests with `handlers` until the parent
 * disconnects, then exits. Tells the parent it is ready once the handlers are installed.
 */
export function serveIpcCommands<Commands extends CommandShapes<Commands>>(
  handlers: CommandHandlers<Commands>,
  options: ServeIpcOptions = {},
): void {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error("IPC worker: no IPC channel; start this file with startIpcWorker()");
  const answer = (message: IpcWorkerMessage): void => {
    // The parent may be gone already; its disconnect ends this process.
    if (process.connected) send(message);
  };
  const handle = async (request: IpcRequest): Promise<void> => {
    const handler = (handlers as Record<string, ((params: unknown) => unknown) | undefined>)[request.command];
    try {
      if (handler === undefined)
        throw new Error(`unknown command "${request.command}"; this worker knows ${Object.keys(handlers).join(", ")}`);
      answer({ kind: "answer", id: request.id, result: await handler(request.params) });
    } catch (error) {
      const message = describeCause(error);
      answer({
        kind: "failure",
        id: request.id,
        message,
        ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}),
      });
    }
  };
  process.on("message", (message) => {
    if (isIpcRequest(message)) void handle(message);
  });
  process.once("disconnect", () => {
    // A cleanup that hangs must not keep an orphaned worker alive.
    setTimeout(() => process.exit(1), options.disconnectGraceMs ?? 10_000);
    void (options.onDisconnect?.() ?? Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  answer({ kind: "ready" });
}
