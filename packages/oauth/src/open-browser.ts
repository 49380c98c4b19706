export interface OpenInBrowserOptions {
  /** Where the URL is printed. Default: process.stderr. */
  write?: (text: string) => void;
  /** Someone is at a terminal (else the URL is only printed). Default: process.stdout.isTTY. */
  isTTY?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Prints the authorization URL, and opens it in the system browser when there is a terminal and
 * (on Linux) a display: over SSH or in CI the user copies the URL instead.
 */
export async function openInBrowser(url: URL, options: OpenInBrowserOptions = {}): Promise<void> {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const env = options.env ?? process.env;
  write(`Open this URL in a browser to log in:\n\n  ${url.href}\n\n`);
  const hasDisplay = process.platform !== "linux" || Boolean(env.DISPLAY ?? env.WAYLAND_DISPLAY);
  if (!(options.isTTY ?? process.stdout.isTTY) || !hasDisplay || env.CI) return;
  try {
    // Loaded only when a browser is wanted: `open` and its helpers stay out of every other import.
    const { default: open } = await import("open");
    const child = await open(url.href, { wait: false });
    // A browser that fails to start leaves the printed URL as the way in.
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // Same: the URL is on the screen.
  }
}
