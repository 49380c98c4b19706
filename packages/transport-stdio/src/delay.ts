export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves when `event` does or after `ms`, whichever comes first. The timer is cleared as soon as
 * `event` wins: a pending timer keeps Node's event loop alive, so a script that closed its
 * transport would otherwise sit out the whole wait before it could exit.
 */
export function untilOrAfter(event: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([event.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
