const isWindows = process.platform === "win32";

/**
 * Sends `signal` to the process group led by `pid` (a server spawned detached leads its own
 * group, and everything it starts, like the real server behind `npx`, is in it). Windows has no
 * process groups: there only the process itself is signalled. Returns false when nothing was
 * there to signal.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(isWindows ? pid : -pid, signal);
    return true;
  } catch (error) {
    if (errorCode(error) === "ESRCH") return false;
    // EPERM: the group exists but is not ours to signal; nothing more we can do.
    return errorCode(error) === "EPERM";
  }
}

/** Whether any process of the group led by `pid` still exists. */
export function isProcessGroupAlive(pid: number): boolean {
  try {
    process.kill(isWindows ? pid : -pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}
