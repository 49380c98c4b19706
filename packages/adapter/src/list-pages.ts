import { isParsedFromWire } from "@mcp-tool-adapter/core/value-rules";
import { describeCause, MCPDiscoveryError, MCPNotConnectedError } from "./errors.js";
import type { Redactor } from "./redaction.js";
import type { RequestContext } from "./request-outcome.js";
import type { Session } from "./session.js";

/** What following a paginated list request needs from the adapter. */
export interface ListPagesContext {
  readonly serverName: string;
  readonly redactor: Redactor;
  readonly maxListPages: number;
  request: RequestContext["request"];
}

/** One paginated list: its method, the result field holding the items, and how messages name it. */
export interface PagedList {
  readonly method: string;
  readonly field: string;
  /** What failed, at the start of a message; default "Listing". */
  readonly subject?: string;
  /** What could not finish when the connection closed; default the method. */
  readonly activity?: string;
  /** What "that many" counts; default "items". */
  readonly items?: string;
}

/**
 * Every item of a paginated list (`resources/list`, `prompts/list`, ...): follows `nextCursor`,
 * refusing a cursor seen before and more than `maxListPages` pages, the same guards as tool
 * discovery. Throws MCPDiscoveryError when the server fails or its pages make no sense, and
 * MCPNotConnectedError when the connection closes on the way.
 */
export async function listAllPages(context: ListPagesContext, session: Session, list: PagedList): Promise<unknown[]> {
  const items: unknown[] = [];
  await forEachPage(context, session, list, (page) => {
    for (const item of page) items.push(item);
  });
  return items;
}

/**
 * Follows the list as listAllPages does, handing each page's items to `onPage` as the page
 * arrives, so a caller that keeps its own form of the items (tool discovery's catalog entries)
 * never holds every page's raw items at once. `owned` says the page was parsed from the wire by
 * our own transport (markParsedFromWire), so its items may be frozen in place rather than copied.
 * The next page is asked for before `onPage` reads this one: the server prepares it while the
 * items are read (over stdio the request is written at once, so the two overlap).
 * Throws what listAllPages throws, and what `onPage` throws.
 */
export async function forEachPage(
  context: ListPagesContext,
  session: Session,
  list: PagedList,
  onPage: (items: readonly unknown[], owned: boolean) => void,
): Promise<void> {
  const { serverName, maxListPages } = context;
  const { method, field, subject = "Listing", items: counted = "items" } = list;
  const seenCursors = new Set<string>();
  let asked = askForPage(context, session, list, undefined);
  for (let page = 1; ; page += 1) {
    const result = await asked;
    const listed = (result as Record<string, unknown> | null)?.[field];
    if (!Array.isArray(listed)) {
      throw new MCPDiscoveryError(
        `${subject} on MCP server "${serverName}" failed: the ${method} result has no "${field}" list.`,
        { serverName },
      );
    }
    const next = (result as { nextCursor?: unknown }).nextCursor;
    const more = typeof next === "string";
    if (more) {
      if (seenCursors.has(next)) {
        throw new MCPDiscoveryError(
          `${subject} on MCP server "${serverName}" failed: ${method} returned cursor "${next}" a second time, so pagination would never end.`,
          { serverName },
        );
      }
      if (page + 1 > maxListPages) {
        throw new MCPDiscoveryError(
          `${subject} on MCP server "${serverName}" stopped after ${maxListPages} pages of ${method}; the server keeps paginating. Raise maxListPages if it really has that many ${counted}.`,
          { serverName },
        );
      }
      seenCursors.add(next);
      asked = askForPage(context, session, list, next);
      // Should onPage throw, the listing is over and the next page's failure is nobody's to report.
      asked.catch(() => undefined);
    }
    onPage(listed as unknown[], isParsedFromWire(result));
    if (!more) return;
  }
}

/** Sends one page's request; its failure is classified (the connection lost, or the server's error). */
async function askForPage(
  context: ListPagesContext,
  session: Session,
  list: PagedList,
  cursor: string | undefined,
): Promise<unknown> {
  const { serverName, redactor } = context;
  const { method, subject = "Listing", activity = method } = list;
  try {
    return await context.request(session, { method, ...(cursor === undefined ? {} : { params: { cursor } }) });
  } catch (error) {
    if (session.state !== "open") {
      throw new MCPNotConnectedError(
        `Cannot finish ${activity}: not connected to MCP server "${serverName}" any more (the connection closed during it). Call reconnect() and try again.`,
        { serverName, cause: redactor.value(error) },
      );
    }
    throw new MCPDiscoveryError(
      redactor.text(
        `${subject} on MCP server "${serverName}" failed: ${method} returned an error: ${describeCause(error)}`,
      ),
      { serverName, cause: redactor.value(error) },
    );
  }
}
