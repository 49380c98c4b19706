import open from "open";

/**
 * Prints the authorization URL on stderr, and opens it in the system browser when there is a
 * terminal and (on Linux) a display: over SSH or in CI the user copies the URL instead.
 */
export async function openInBrowser(url: URL): Promise<void> {
  process.stderr.write(`Open this URL in a browser to log in:\n\n  ${url.href}\n\n`);
  const hasDisplay = process.platform !== "linux" || Boolean(process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY);
  if (!process.stdout.isTTY || !hasDisplay || process.env.CI) return;
  try {
    const child = await open(url.href, { wait: false });
    // A browser that fails to start leaves the printed URL as the way in.
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // Same: the URL is on the screen.
  }
}
