/**
 * The worker side of startIpcWorker's input. Kept apart from the spawning code so a worker
 * loads nothing of the parent's (the test-servers package, child_process helpers).
 */

/** Worker side: the JSON input the parent passed (runWorker or startIpcWorker). */
export function workerInput(): unknown {
  const raw = process.argv[2];
  if (raw === undefined)
    throw new Error("bench worker: missing JSON input argument; run it through startIpcWorker() or runWorker()");
  return JSON.parse(raw);
}
