import { describe, expect, it } from "vitest";
import { RelatedRequestTags } from "../src/protocol.js";

/** A client that numbers its requests and sends each at once, as SDK 1.x's `request()` does. */
function clientOver(links: RelatedRequestTags): { request(method: string): number } {
  let next = 0;
  return {
    request(method) {
      const id = next++;
      links.sent({ id, method });
      return id;
    },
  };
}

describe("RelatedRequestTags", () => {
  it("hands a server's request the tag of the request whose stream carried it, until it is answered", () => {
    const links = new RelatedRequestTags();
    const client = clientOver(links);
    const call = links.sending("ada's call", () => client.request("tools/call"));
    const other = links.sending("grace's call", () => client.request("tools/call"));
    links.received({ id: "s1", method: "elicitation/create" }, { relatedRequestId: other });
    links.received({ id: "s2", method: "sampling/createMessage" }, { relatedRequestId: call });
    expect(links.tagOf("s1")).toBe("grace's call");
    expect(links.tagOf("s2")).toBe("ada's call");
    links.sent({ id: "s1" });
    expect(links.tagOf("s1")).toBeUndefined();
    expect(links.tagOf("s2")).toBe("ada's call");
  });

  it("links nothing without the transport's link, for an untagged request, or once the request was answered", () => {
    const links = new RelatedRequestTags();
    const client = clientOver(links);
    const untagged = client.request("tools/call");
    const answered = links.sending("call", () => client.request("tools/call"));
    links.received({ id: answered }, undefined);
    links.received({ id: "s1", method: "elicitation/create" }, undefined);
    links.received({ id: "s2", method: "elicitation/create" }, { relatedRequestId: untagged });
    links.received({ id: "s3", method: "elicitation/create" }, { relatedRequestId: answered });
    expect([links.tagOf("s1"), links.tagOf("s2"), links.tagOf("s3")]).toEqual([undefined, undefined, undefined]);
  });

  it("forgets a request the client cancelled, and everything when the connection closes", () => {
    const links = new RelatedRequestTags();
    const client = clientOver(links);
    const cancelled = links.sending("cancelled", () => client.request("tools/call"));
    const running = links.sending("running", () => client.request("tools/call"));
    links.sent({ method: "notifications/cancelled", params: { requestId: cancelled } });
    links.received({ id: "s1", method: "elicitation/create" }, { relatedRequestId: cancelled });
    links.received({ id: "s2", method: "elicitation/create" }, { relatedRequestId: running });
    expect(links.tagOf("s1")).toBeUndefined();
    expect(links.tagOf("s2")).toBe("running");
    links.clear();
    expect(links.tagOf("s2")).toBeUndefined();
    links.received({ id: "s3", method: "elicitation/create" }, { relatedRequestId: running });
    expect(links.tagOf("s3")).toBeUndefined();
  });

  it("tags no later request when the client sends after an await: its questions stay unlinked", async () => {
    const links = new RelatedRequestTags();
    const client = clientOver(links);
    let sentLater: Promise<number> | undefined;
    links.sending("late call", () => {
      sentLater = Promise.resolve().then(() => client.request("tools/call"));
    });
    const late = await sentLater;
    const next = links.sending(undefined, () => client.request("tools/call"));
    links.received({ id: "s1", method: "elicitation/create" }, { relatedRequestId: late ?? -1 });
    links.received({ id: "s2", method: "elicitation/create" }, { relatedRequestId: next });
    expect([links.tagOf("s1"), links.tagOf("s2")]).toEqual([undefined, undefined]);
  });
});
