import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type IpcWorkerErrorCode =
  /** The worker exited, or did not say it was ready in time, before any command. */
  | "WORKER_START_FAILED"
  /** A command got no answer before its deadline; the worker was stopped. */
  | "COMMAND_TIMED_OUT"
  /** The worker exited while a command ran, or before it could be sent. */
  | "WORKER_EXITED"
  /** The worker's handler threw; the message carries the worker's own message and stack. */
  | "COMMAND_FAILED";

/** A long-lived bench worker failed; the message names the worker, the command and its stderr tail. */
export class IpcWorkerError extends MCPToolAdapterError<IpcWorkerErrorCode> {
  static override readonly errorName: string = "IpcWorkerError";
  /** The worker's name as given to startIpcWorker, e.g. "adapter side worker". */
  readonly worker: string;
  readonly command: string | undefined;
  /** The last lines the worker wrote to stderr (bounded). */
  readonly stderrTail: string;

  constructor(
    code: IpcWorkerErrorCode,
    message: string,
    details: { worker: string; command?: string; stderrTail: string },
  ) {
    const tail = details.stderrTail.trim();
    super(
      code,
      `${message}\n${tail === "" ? "The worker wrote nothing to stderr." : `The worker's stderr ended with:\n${tail}`}`,
    );
    this.worker = details.worker;
    this.command = details.command;
    this.stderrTail = details.stderrTail;
  }
}
