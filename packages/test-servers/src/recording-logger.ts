type Level = "debug" | "info" | "warn" | "error";

/** A logger with every level, as the adapter (and the transports) take one. */
export type RecordedLogger = Record<Level, (message: string) => void>;

/** A logger that keeps every line as `level: message`, for a test of what was (or was not) logged. */
export function recordingLogger(): { logger: RecordedLogger; lines: string[] } {
  const lines: string[] = [];
  const at =
    (level: Level) =>
    (message: string): void => {
      lines.push(`${level}: ${message}`);
    };
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, lines };
}
