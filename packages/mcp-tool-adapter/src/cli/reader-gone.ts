/**
 * A reader that stops early (`mcp-tool-adapter --help | head -1`) closes the pipe, and the next
 * write to it fails with EPIPE on the stream, where Node throws it as an unhandled 'error' event
 * with a stack trace. That is the reader's choice, not a failure of the command: exit quietly, as
 * git and coreutils do. A server `call` started is still stopped by the stdio transport's exit
 * cleanup. Any other error on the stream is left to Node's default: it is a real failure.
 */
export function exitQuietlyWhenReaderLeaves(streams: readonly NodeJS.WriteStream[]): void {
  for (const stream of streams)
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
    });
}
