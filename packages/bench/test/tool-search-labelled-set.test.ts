import { describe, expect, it } from "vitest";
import { LABELLED_QUERIES } from "../src/scenarios/tool-search-queries.js";
import { distractorTool } from "../src/servers/distractor-tools.js";
import { PUBLISHED_SERVERS, readPublishedServers } from "../src/servers/published-servers.js";

// The tool-search retrieval figures are only as good as their labelled set: these checks keep it honest.
describe("tool-search labelled set", () => {
  it("has at least 150 distinct task queries, none of them a tool's own name", () => {
    const queries = LABELLED_QUERIES.map((entry) => entry.query);
    expect(new Set(queries).size).toBe(queries.length);
    expect(queries.length).toBeGreaterThanOrEqual(150);
    for (const { query, tools } of LABELLED_QUERIES) {
      expect(tools.length).toBeGreaterThan(0);
      for (const name of tools) expect(query).not.toContain(name.split("/")[1]);
    }
  });

  it("reads memory and filesystem over stdio, and every label of theirs names a tool they list", async () => {
    const wanted = PUBLISHED_SERVERS.filter((server) => ["memory", "filesystem"].includes(server.namespace));
    const { read, failed } = await readPublishedServers(wanted);
    expect(failed).toEqual([]);
    const listed = new Set(
      read.flatMap(({ server, tools }) => tools.map((tool) => `${server.namespace}/${tool.name}`)),
    );
    expect(listed.has("memory/read_graph")).toBe(true);
    const labels = LABELLED_QUERIES.flatMap((entry) => entry.tools).filter(
      (name) => name.startsWith("memory/") || name.startsWith("filesystem/"),
    );
    expect(labels.length).toBeGreaterThan(20);
    for (const name of labels) expect(listed, name).toContain(name);
  }, 120_000);

  it("labels only namespaces of the published servers", () => {
    const namespaces = new Set(PUBLISHED_SERVERS.map((server) => server.namespace));
    for (const name of LABELLED_QUERIES.flatMap((entry) => entry.tools))
      expect(namespaces).toContain(name.split("/")[0]);
  });

  it("generates 5,000 distractors with distinct names", () => {
    const names = Array.from({ length: 5_000 }, (_, index) => distractorTool(index).name);
    expect(new Set(names).size).toBe(5_000);
  });
});
