/**
 * A transport that keeps the host's event loop alive by itself for as long as it is open (the
 * stdio transport: the server's process and its pipes). A request sent over it needs no timer of
 * its own to hold the process open, so a session can leave its deadline timer unreferenced for
 * good instead of referencing it when a request starts and unreferencing it when the last one
 * ends: on a sequential call that toggle was two of Node's timer functions each way, one native
 * call each, on every request.
 */
export interface ProcessHoldingTransport {
  readonly holdsProcessOpen: true;
}

/** Whether `transport` says it holds the process open while it is open (ProcessHoldingTransport). */
export function holdsProcessOpen(transport: object): boolean {
  return (transport as Partial<ProcessHoldingTransport>).holdsProcessOpen === true;
}
