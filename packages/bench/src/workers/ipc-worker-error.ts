const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type IpcWorkerErrorCode =
  /** The worker exited, or did not say it was ready in time, before any command. */
  | "WORKER_START_FAILED"
  /** A command got no answer before its deadline; the worker was stopped. */
  | "COMMAND_TIMED_OUT"
  /** The worker exited while a command ran, or before it could be sent. */
  | "WORKER_EXITED"
  /** The worker's handler threw; the message carries the worker's own message and stack. */
  | "COMMAND_FAILED";

const CODES: readonly string[] = ["WORKER_START_FAILED", "COMMAND_TIMED_OUT", "WORKER_EXITED", "COMMAND_FAILED"];

/** A long-lived bench worker failed; the message names the worker, the command and its stderr tail. */
export class IpcWorkerError extends Error {
  readonly code: IpcWorkerErrorCode;
  /** The worker's name as given to startIpcWorker, e.g. "adapter side worker". */
  readonly worker: string;
  readonly command: string | undefined;
  /** The last lines the worker wrote to stderr (bounded). */
  readonly stderrTail: string;
  readonly [ERROR_MARKER] = true;

  constructor(code: IpcWorkerErrorCode, message: string, details: { worker: string; command?: string; stderrTail: string }) {
    const tail = details.stderrTail.trim();
    super(`${message}\n${tail === "" ? "The worker wrote nothing to stderr." : `The worker's stderr ended with:\n${tail}`}`);
    this.name = "IpcWorkerError";
    this.code = code;
    this.worker = details.worker;
    this.command = details.command;
    this.stderrTail = details.stderrTail;
  }

  /** True for errors of this class from any copy of the module (a Symbol.for marker, not instanceof). */
  static isInstance(value: unknown): value is IpcWorkerError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [ERROR_MARKER]?: unknown })[ERROR_MARKER] === true &&
      CODES.includes(String((value as { code?: unknown }).code))
    );
  }
}
