import { describe, expect, it } from "vitest";
import { MCPDiscoveryError } from "../src/errors.js";
import { forEachPage, type ListPagesContext } from "../src/list-pages.js";
import { Redactor } from "../src/redaction.js";
import { Session } from "../src/session.js";

type Request = ListPagesContext["request"];

/** A session whose requests go to `request` (forEachPage only sends through the context). */
function pagesOf(request: Request, maxListPages = 10): { context: ListPagesContext; session: Session } {
  const session = new Session({} as never, (_session, error) => error as Error);
  return { context: { serverName: "pager", redactor: new Redactor([]), maxListPages, request }, session };
}

const TOOLS_LIST = { method: "tools/list", field: "tools" } as const;

describe("forEachPage", () => {
  it("asks for the next page before reading the one that arrived, and reads them in order", async () => {
    const events: string[] = [];
    const { context, session } = pagesOf((_session, { params }) => {
      const cursor = params?.cursor as string | undefined;
      events.push(`asked ${cursor ?? "first"}`);
      return Promise.resolve(cursor === undefined ? { tools: ["a"], nextCursor: "2" } : { tools: ["b"] });
    });
    await forEachPage(context, session, TOOLS_LIST, (items) => {
      events.push(`read ${items.join()}`);
    });
    expect(events).toEqual(["asked first", "asked 2", "read a", "read b"]);
  });

  it("rejects with what reading a page threw, and the page asked for meanwhile fails unnoticed", async () => {
    let asked = 0;
    const { context, session } = pagesOf(() => {
      asked += 1;
      return asked === 1 ? Promise.resolve({ tools: ["a"], nextCursor: "2" }) : Promise.reject(new Error("gone"));
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on("unhandledRejection", onUnhandled);
    try {
      await expect(
        forEachPage(context, session, TOOLS_LIST, () => {
          throw new Error("reading failed");
        }),
      ).rejects.toThrow("reading failed");
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(asked).toBe(2);
    expect(unhandled).toEqual([]);
  });

  it("does not ask past maxListPages or for a cursor it saw, and classifies a failed page", async () => {
    const endless = pagesOf(
      (_session, { params }) =>
        Promise.resolve({ tools: [], nextCursor: `${(params?.cursor as string | undefined) ?? "0"}x` }),
      3,
    );
    let asked = 0;
    const counting: Request = (target, request) => {
      asked += 1;
      return endless.context.request(target, request);
    };
    await expect(
      forEachPage({ ...endless.context, request: counting }, endless.session, TOOLS_LIST, () => undefined),
    ).rejects.toThrow(/stopped after 3 pages/);
    expect(asked).toBe(3);

    const failing = pagesOf(() => Promise.reject(new Error("listing exploded")));
    const error = await forEachPage(failing.context, failing.session, TOOLS_LIST, () => undefined).catch(
      (caught: unknown) => caught,
    );
    expect(MCPDiscoveryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/tools\/list returned an error: .*listing exploded/);
  });
});
