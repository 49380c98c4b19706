/** What the host-exit hook needs from a live server. */
export interface HostExitTarget {
  /** Ends the server's process family: SIGTERM, then SIGKILL after the grace. */
  terminate(): Promise<void>;
  /** Synchronous last resort while the host is exiting: SIGKILL the family now. */
  killNow(): void;
}

const TERMINATING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type TerminatingSignal = (typeof TERMINATING_SIGNALS)[number];

/**
 * One registry for the whole module: however many transports are open, the host process gets
 * exactly one `exit` listener and one listener per signal, installed with the first live server
 * and removed with the last.
 */
const liveTargets = new Set<HostExitTarget>();
let listening = false;

/** Registers a live server; the returned function unregisters it. */
export function killOnHostExit(target: HostExitTarget): () => void {
  liveTargets.add(target);
  if (!listening) installListeners();
  return () => {
    liveTargets.delete(target);
    if (liveTargets.size === 0) removeListeners();
  };
}

/** Number of servers the hook would kill now (for tests and diagnostics). */
export function liveServerCount(): number {
  return liveTargets.size;
}

function installListeners(): void {
  listening = true;
  process.on("exit", onHostExit);
  for (const signal of TERMINATING_SIGNALS) process.on(signal, onHostSignal);
}

function removeListeners(): void {
  listening = false;
  process.removeListener("exit", onHostExit);
  for (const signal of TERMINATING_SIGNALS) process.removeListener(signal, onHostSignal);
}

// `exit` listeners must be synchronous: there is no later moment to escalate from SIGTERM, so kill outright.
function onHostExit(): void {
  for (const target of liveTargets) target.killNow();
  liveTargets.clear();
}

function onHostSignal(signal: NodeJS.Signals): void {
  // Someone else also listens: the host has its own policy for this signal (it may not exit at
  // all). Leave the servers be; if the host does exit, the `exit` hook still takes them down.
  if (process.listenerCount(signal) > 1) return;
  void terminateAllThenReraise(signal as TerminatingSignal);
}

async function terminateAllThenReraise(signal: TerminatingSignal): Promise<void> {
  await Promise.allSettled([...liveTargets].map((target) => target.terminate()));
  for (const target of liveTargets) target.killNow();
  liveTargets.clear();
  removeListeners();
  // With no listener left the signal takes Node's default action, so the host ends exactly as it
  // would have without us (killed by the signal, with the usual exit status).
  process.kill(process.pid, signal);
}
