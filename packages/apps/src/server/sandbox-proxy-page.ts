/**
 * The sandbox proxy page: the outer of the extension's two frames. The host embeds it from an
 * origin of its own (never the host's), it creates the inner frame the app runs in, writes the
 * app's HTML into it when the host sends `ui/notifications/sandbox-resource-ready`, and relays
 * every other message between the host and the app, each way only to the one window expected.
 *
 * The page is served with the app's Content-Security-Policy as a header (see buildAppCsp), and
 * the inner frame, an about:blank document written by this page, inherits that policy. Neither
 * frame may navigate the top window, open popups or reach the host's DOM or storage: the host's
 * iframe and the inner one are sandboxed without `allow-top-navigation` and `allow-popups`, and
 * the host is another origin.
 */
export function sandboxProxyPage(hostOrigins: readonly string[]): string {
  // Embedded as JSON in a script: `<` is escaped so no origin string can close the script element.
  const allowed = JSON.stringify(hostOrigins).replaceAll("<", "\\u003c");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(() => {
  const ALLOWED_HOSTS = ${allowed};
  const READY = "ui/notifications/sandbox-proxy-ready";
  const RESOURCE = "ui/notifications/sandbox-resource-ready";
  const PERMISSIONS = { camera: "camera", microphone: "microphone", geolocation: "geolocation", clipboardWrite: "clipboard-write" };
  if (window.parent === window) throw new Error("The MCP App sandbox only runs inside a host's iframe.");
  const host = document.referrer === "" ? "" : new URL(document.referrer).origin;
  if (!ALLOWED_HOSTS.includes(host)) throw new Error("The MCP App sandbox refuses to run for " + (host || "an unknown embedder"));
  const own = location.origin;
  const inner = document.createElement("iframe");
  inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  document.body.appendChild(inner);
  window.addEventListener("message", (event) => {
    if (event.source === window.parent) {
      if (event.origin !== host) return;
      const message = event.data;
      if (message && message.method === RESOURCE) {
        const params = message.params || {};
        const allow = Object.keys(params.permissions || {}).map((key) => PERMISSIONS[key]).filter(Boolean);
        if (allow.length > 0) inner.setAttribute("allow", allow.join("; "));
        if (typeof params.html === "string") {
          const doc = inner.contentDocument;
          doc.open();
          doc.write(params.html);
          doc.close();
        }
        return;
      }
      if (inner.contentWindow) inner.contentWindow.postMessage(message, own);
    } else if (event.source === inner.contentWindow && event.origin === own) {
      window.parent.postMessage(event.data, host);
    }
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: READY, params: {} }, host);
})();
</script></body></html>
`;
}
