import { appsStdioServer, everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import type { Browser, Frame, Page } from "playwright-core";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { artifactsDirectory, launchChromium, startRecordingServer, type TestHttpServer } from "./fixtures/browser.js";
import { hostileServerTransport } from "./fixtures/hostile-app.js";
import { connectServers, startHost, type HostSetup } from "./fixtures/host.js";
import type { HostEvent, HostPage } from "./fixtures/host-page.js";

// MCP Apps in a real browser (Debian's Chromium through playwright-core): the published example
// server basic-vanillajs over stdio, a hostile app from an in-process server, and server-everything
// (no apps) side by side in one registry, served by the package's own handlers.
let browser: Browser;
let servers: Awaited<ReturnType<typeof connectServers>>;
let setup: HostSetup;
let evil: TestHttpServer;
let allowed: TestHttpServer;
let page: Page;

const stdio = (launch: { command: string; args: string[] }) => () =>
  createStdioTransport({ command: launch.command, args: launch.args });

/** What beforeAll started, closed in reverse order by afterAll (also after a partial start). */
const cleanups: (() => Promise<void>)[] = [];
const openPages: Page[] = [];

beforeAll(async () => {
  evil = await startRecordingServer();
  cleanups.push(() => evil.close());
  allowed = await startRecordingServer();
  cleanups.push(() => allowed.close());
  const origins = { evil: evil.origin, allowed: allowed.origin };
  servers = await connectServers([
    { name: "basic", transport: stdio(appsStdioServer("basic-vanillajs")) },
    { name: "everything", transport: stdio(everythingStdioServer()) },
    { name: "hostile", transport: () => hostileServerTransport(origins) },
  ]);
  cleanups.push(() => servers.close());
  setup = await startHost(servers.source);
  cleanups.push(() => setup.close());
  browser = await launchChromium();
  cleanups.push(() => browser.close());
}, 120_000);

afterAll(async () => {
  for (const close of cleanups.reverse()) await close();
}, 60_000);

afterEach(async () => {
  await openPages.pop()?.close();
});

/** The host page's recorder and helpers (see fixtures/host-page.ts). */
interface HostGlobals {
  host: HostPage;
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

async function openHostPage(): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  openPages.push(page);
  await page.goto(`${setup.host.origin}/`);
  await page.waitForFunction(() => (globalThis as { host?: { ready?: boolean } }).host?.ready === true, undefined, {
    timeout: 30_000,
  });
  await page.evaluate(() => (globalThis as unknown as HostGlobals).localStorage.setItem("secret", "host-only"));
  return page;
}

function showApp(tool: string): Promise<void> {
  const sandboxUrl = `${setup.sandbox.origin}/sandbox.html`;
  return page.evaluate(([name, url]) => (globalThis as unknown as HostGlobals).host.showApp(name, url), [
    tool,
    sandboxUrl,
  ] as const);
}

/** The app's own frame: the inner frame of the sandbox proxy. */
async function appFrame(): Promise<Frame> {
  await expect.poll(() => page.frames().length, { timeout: 30_000 }).toBe(3);
  const inner = page.frames().find((frame) => frame.parentFrame()?.url().startsWith(setup.sandbox.origin) === true);
  if (inner === undefined)
    throw new Error(
      `no app frame among ${page
        .frames()
        .map((frame) => frame.url())
        .join(", ")}`,
    );
  return inner;
}

const events = (): Promise<HostEvent[]> => page.evaluate(() => (globalThis as unknown as HostGlobals).host.events);

function eventOf<K extends HostEvent["kind"]>(all: HostEvent[], kind: K): Extract<HostEvent, { kind: K }> {
  const found = all.find((event): event is Extract<HostEvent, { kind: K }> => event.kind === kind);
  if (found === undefined) throw new Error(`the host recorded no ${kind}: ${JSON.stringify(all)}`);
  return found;
}

const timeOf = (result: { structuredContent?: unknown }) => (result.structuredContent as { time: string }).time;

describe("an MCP App in the browser", () => {
  it("renders the example server's app with the tool's result; a click calls the real server and updates the app", async () => {
    await openHostPage();
    await showApp("basic/get-time");
    const app = await appFrame();
    const first = timeOf(eventOf(await events(), "hostCall").result);
    const shown = app.locator("#server-time");
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toBe(first);
    await page.screenshot({ path: join(artifactsDirectory(), "basic-vanillajs-app.png") });

    await app.locator("#get-time-btn").click();
    await expect
      .poll(async () => (await events()).filter((event) => event.kind === "callTool").length, { timeout: 30_000 })
      .toBe(1);
    const call = eventOf(await events(), "callTool");
    expect(call.name).toBe("get-time");
    expect(Date.parse(timeOf(call.result))).toBeGreaterThanOrEqual(Date.parse(first));
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toBe(timeOf(call.result));

    await app.locator("#send-message-btn").click();
    await app.locator("#open-link-btn").click();
    await expect
      .poll(async () => (await events()).map((event) => event.kind), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(["message", "openLink"]));
    expect(eventOf(await events(), "openLink")).toEqual({
      kind: "openLink",
      url: "https://modelcontextprotocol.io/",
    });

    await page.evaluate(() => (globalThis as unknown as HostGlobals).host.closeApp());
    expect(await page.locator("iframe").count()).toBe(0);
    expect(page.frames()).toHaveLength(1);
  });

  it("keeps a hostile app from other origins, the host's DOM and storage, popups and the top window", async () => {
    await openHostPage();
    await showApp("hostile/attack");
    const app = await appFrame();
    await expect.poll(() => app.locator("#status").textContent(), { timeout: 30_000 }).toBe("done");
    const results = JSON.parse(
      await app.evaluate(
        () =>
          (globalThis as unknown as { document: { body: { dataset: { results?: string } } } }).document.body.dataset
            .results ?? "{}",
      ),
    ) as Record<string, string>;
    expect(results.fetchDeclaredOrigin).toBe("allowed: reached");
    for (const attack of [
      "fetchOtherOrigin",
      "imageOtherOrigin",
      "readParentDom",
      "readParentStorage",
      "readHostCookie",
      "openPopup",
      "navigateTop",
    ]) {
      expect(results[attack], attack).toMatch(/^blocked: /);
    }
    expect(page.url()).toBe(`${setup.host.origin}/`);
    expect(evil.requests).toEqual([]);
    expect(allowed.requests).toEqual(["/declared"]);
    expect(await page.evaluate(() => (globalThis as unknown as HostGlobals).localStorage.getItem("secret"))).toBe(
      "host-only",
    );
  });
});
