/**
 * The worker side of runWorker and startIpcWorker. Kept apart from the spawning code so a
 * worker loads nothing of the parent's (the test-servers package, child_process helpers).
 */

/** Worker side: the JSON input the parent passed (runWorker or startIpcWorker). */
export function workerInput(): unknown {
  const raw = process.argv[2];
  if (raw === undefined) throw new Error("bench worker: missing JSON input argument; run it through runWorker() or startIpcWorker()");
  return JSON.parse(raw);
}

/** Worker side: sends the one answer and waits until it is flushed. */
export function reply(result: unknown): Promise<void> {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error("bench worker: no IPC channel; run it through runWorker()");
  return new Promise((resolve, reject) => {
    send(result, undefined, {}, (error: Error | null) => (error === null ? resolve() : reject(error)));
  });
}
