import type { Browser, Frame, Page } from "playwright-core";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactsDirectory, launchChromium } from "./fixtures/browser.js";
import { startDemo, type DemoProcess } from "./fixtures/demo-process.js";

// The demo web app (`pnpm demo:apps`, packages/apps-demo) as a user runs it: its own process and
// servers, its page through Vite, driven in Chromium. The notes board's "Add" calls a tool that
// writes: the page's approval dialog is asked, and only an allowed call reaches the notes server.
let demo: DemoProcess;
let browser: Browser;
let page: Page;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  demo = await startDemo(150_000);
  cleanups.push(() => demo.stop());
  browser = await launchChromium();
  cleanups.push(() => browser.close());
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
}, 180_000);

afterAll(async () => {
  for (const close of cleanups.reverse()) await close();
}, 60_000);

/** The notes the server holds, read through the demo's own apps channel (a host call of the read-only tool). */
async function serverNotes(): Promise<string[]> {
  const response = await fetch(`${demo.origin}/api/apps/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "notes/show-notes" }),
  });
  const body = (await response.json()) as { result: { structuredContent: { notes: string[] } } };
  return body.result.structuredContent.notes;
}

async function appFrame(): Promise<Frame> {
  const sandboxOrigin = (await page.evaluate(() => fetch("/demo-config.json").then((r) => r.json()))) as {
    sandboxUrl: string;
  };
  const origin = new URL(sandboxOrigin.sandboxUrl).origin;
  let inner: Frame | undefined;
  await expect
    .poll(() => (inner = page.frames().find((frame) => frame.parentFrame()?.url().startsWith(origin) === true)), {
      timeout: 60_000,
    })
    .toBeDefined();
  return inner as Frame;
}

const log = () => page.locator("#log").textContent();

describe("the MCP Apps demo", () => {
  it("shows a tool's app; the app's call to a tool that writes runs only once the user allows it", async () => {
    await page.goto(`${demo.origin}/`);
    await expect.poll(log, { timeout: 60_000 }).toMatch(/\d+ tools from 5 servers/);
    const offered = await page
      .locator("#tool option")
      .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    expect(offered).toEqual(expect.arrayContaining(["notes/show-notes", "basic/get-time", "everything/echo"]));
    // App-only tools are not offered (a model would not see them).
    expect(offered).not.toContain("notes/add-note");
    expect(offered).not.toContain("monitor/poll-system-stats");

    await page.locator("#tool").selectOption("notes/show-notes");
    await page.locator("#call").click();
    const app = await appFrame();
    await expect.poll(() => app.locator("#status").textContent(), { timeout: 60_000 }).toBe("ready");
    expect(await serverNotes()).toEqual([]);

    await app.locator("#note-text").fill("buy milk");
    await app.locator("#add-note").click();
    const dialog = page.locator("#approval");
    await dialog.waitFor({ state: "visible", timeout: 30_000 });
    expect(await page.locator("#approval-question").textContent()).toBe(
      'notes/add-note may change something. Run it with {"text":"buy milk"}?',
    );
    await page.screenshot({ path: join(artifactsDirectory(), "apps-demo-approval.png") });
    await page.locator("#approval-allow").click();
    await expect.poll(() => app.locator("#status").textContent(), { timeout: 30_000 }).toBe("added");
    expect(await app.locator("#notes li").allTextContents()).toEqual(["buy milk"]);
    expect(await serverNotes()).toEqual(["buy milk"]);
    await page.screenshot({ path: join(artifactsDirectory(), "apps-demo-notes.png") });

    await app.locator("#note-text").fill("sell the car");
    await app.locator("#add-note").click();
    await dialog.waitFor({ state: "visible", timeout: 30_000 });
    await page.locator("#approval-refuse").click();
    await expect
      .poll(() => app.locator("#status").textContent(), { timeout: 30_000 })
      .toBe("not added: The user refused this call.");
    expect(await app.locator("#notes li").allTextContents()).toEqual(["buy milk"]);
    expect(await serverNotes()).toEqual(["buy milk"]);
    expect(await log()).toMatch(/✗ notes\/add-note: refused by you/);
    expect(await log()).toMatch(/✓ app → notes\/add-note \{"text":"buy milk"\}/);
  });
});
