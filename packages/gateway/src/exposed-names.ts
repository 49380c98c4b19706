import { createModelToolNames, type ModelToolNames } from "@mcp-tool-adapter/model-tools";

/** One upstream item (tool or prompt) under the name a downstream client sees. */
export interface ExposedName {
  readonly server: string;
  /** The item's own name on its upstream server. */
  readonly upstreamName: string;
  /** What the downstream client sees and calls. */
  readonly exposedName: string;
}

/**
 * Names every upstream item as the bridges name tools for a model (`memory__read_graph`), with
 * model-tools' own naming function so a gateway and a bridge agree; with one server (single-server
 * mode) the upstream names are kept as they are.
 */
export function exposeNames(
  items: readonly { server: string; upstreamName: string }[],
  singleServer: boolean,
): ExposedName[] {
  if (singleServer) return items.map((item) => ({ ...item, exposedName: item.upstreamName }));
  const names: ModelToolNames = createModelToolNames(items.map((item) => `${item.server}/${item.upstreamName}`));
  return items.map((item) => ({ ...item, exposedName: names.toModelName(`${item.server}/${item.upstreamName}`) }));
}
