import { delay } from "./delay.js";
import type { FamilyMembers, ProcessFamily } from "./process-family.js";

const POLL_MS = 25;
/** After SIGKILL, how long to wait for the kernel to take the processes down. */
const SIGKILL_REAP_MS = 1000;

export interface TerminateFamilyOptions {
  /** How long the family gets after SIGTERM before SIGKILL. */
  graceMs: number;
  /** Told when SIGTERM was not enough and SIGKILL follows. */
  onEscalate?: (left: FamilyMembers) => void;
  /** Members found earlier (say, before stdin was closed), kept while they still run. */
  known?: FamilyMembers;
}

/**
 * SIGTERM to the whole family, then up to `graceMs` for it to go (polling the processes found,
 * not rescanning /proc each time); then one rescan, for anything started since the first scan,
 * and SIGKILL for whatever is left. Resolves once the family is gone or SIGKILL had its moment.
 */
export async function terminateFamily(family: ProcessFamily, options: TerminateFamilyOptions): Promise<void> {
  const found = family.find(options.known);
  if (found.empty) return;
  found.signal("SIGTERM");
  const left = family.find(await waitUntilGone(found, options.graceMs));
  if (left.empty) return;
  options.onEscalate?.(left);
  left.signal("SIGKILL");
  await waitUntilGone(left, SIGKILL_REAP_MS);
}

/** Synchronous last resort (the host's `exit` hook cannot wait): SIGKILL the family now. */
export function killFamilyNow(family: ProcessFamily): void {
  family.find().signal("SIGKILL");
}

/** Polls the members until none runs or `timeoutMs` passes; resolves with those still running. */
async function waitUntilGone(members: FamilyMembers, timeoutMs: number): Promise<FamilyMembers> {
  const deadline = Date.now() + timeoutMs;
  let left = members.stillRunning();
  while (!left.empty && Date.now() < deadline) {
    await delay(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
    left = left.stillRunning();
  }
  return left;
}
