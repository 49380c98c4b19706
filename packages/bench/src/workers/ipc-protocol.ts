/**
 * The messages between a long-lived worker and its parent (startIpcWorker / serveIpcCommands).
 * Plain JSON over node's IPC channel; one answer per request, matched by `id`.
 */

/** What a worker understands: each command's parameters and the result it answers with. */
export type CommandShapes<Commands> = { [Name in keyof Commands]: { params: unknown; result: unknown } };

/** Parent to worker: run `command` with `params`. */
export interface IpcRequest {
  readonly kind: "request";
  readonly id: number;
  readonly command: string;
  readonly params: unknown;
}

/** Worker to parent. */
export type IpcWorkerMessage =
  /** The worker's handlers are installed; requests may come. */
  | { readonly kind: "ready" }
  | { readonly kind: "answer"; readonly id: number; readonly result: unknown }
  /** The handler threw: its message and stack, since an Error does not survive JSON. */
  | { readonly kind: "failure"; readonly id: number; readonly message: string; readonly stack?: string };

export function isIpcRequest(message: unknown): message is IpcRequest {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { kind?: unknown }).kind === "request" &&
    typeof (message as { id?: unknown }).id === "number"
  );
}

export function isIpcWorkerMessage(message: unknown): message is IpcWorkerMessage {
  const kind = typeof message === "object" && message !== null ? (message as { kind?: unknown }).kind : undefined;
  return kind === "ready" || kind === "answer" || kind === "failure";
}
