import { createModelToolNames } from "@mcp-tool-adapter/model-tools";
import type { RegisteredTool } from "@mcp-tool-adapter/registry";

/** One tool as the program calls it: `group.method(args)`. */
export interface ApiMethod {
  readonly group: string;
  readonly method: string;
  readonly tool: RegisteredTool;
}

/** The tools of a source as a typed API: one group per namespace (server), one method per tool. */
export interface ApiBinding {
  readonly methods: readonly ApiMethod[];
  /** group -> method -> registry name: what the sandbox's prelude builds the objects from. */
  readonly table: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * Globals the sandbox defines or a program needs: a server named like one gets a trailing "_".
 * JavaScript's reserved words are here too, since a group is a `const` name.
 */
const TAKEN_NAMES = new Set([
  ..."break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await async arguments eval undefined NaN Infinity".split(
    " ",
  ),
  ..."globalThis console ToolCallError JSON Math Object Array String Number Boolean Promise Error Symbol Date RegExp Map Set".split(
    " ",
  ),
]);

/**
 * Groups and method names follow model-tools' model-safe naming with its "word" charset
 * (`a-z A-Z 0-9 _`, never starting with a digit): `memory/read_graph` is `memory.read_graph`,
 * `everything/get-tiny-image` is `everything.get_tiny_image`, and names that meet once sanitised
 * get model-tools' short hash, so each stays distinct and independent of the order of the tools.
 */
export function bindApi(tools: readonly RegisteredTool[]): ApiBinding {
  const byNamespace = new Map<string, RegisteredTool[]>();
  for (const tool of tools) {
    const list = byNamespace.get(tool.namespace);
    if (list === undefined) byNamespace.set(tool.namespace, [tool]);
    else list.push(tool);
  }
  const groupNames = groupNamesOf([...byNamespace.keys()]);
  const methods: ApiMethod[] = [];
  const table: Record<string, Record<string, string>> = {};
  for (const [namespace, members] of [...byNamespace].sort(([left], [right]) => compare(left, right))) {
    const group = groupNames.get(namespace) as string;
    const methodNames = createModelToolNames(
      members.map((tool) => tool.localName),
      { charset: "word" },
    );
    const entries: Record<string, string> = {};
    for (const tool of [...members].sort((left, right) => compare(left.localName, right.localName))) {
      const method = methodNames.toModelName(tool.localName);
      entries[method] = tool.name;
      methods.push({ group, method, tool });
    }
    table[group] = entries;
  }
  return { methods, table };
}

/**
 * Each namespace's group name, distinct from every other and from {@link TAKEN_NAMES}. A name the
 * sandbox already uses gets a trailing "_", asked of model-tools as that namespace with an empty
 * tool name and "_" for separator (`console/` reads `console_`): a server really named `console_`
 * then meets it, and both get model-tools' collision hash, as any two names that meet do.
 */
function groupNamesOf(namespaces: readonly string[]): Map<string, string> {
  const plain = createModelToolNames(namespaces, { charset: "word" });
  const keys = namespaces.map((namespace) =>
    TAKEN_NAMES.has(plain.toModelName(namespace)) ? `${namespace}/` : namespace,
  );
  const names = createModelToolNames(keys, { charset: "word", separator: "_" });
  return new Map(namespaces.map((namespace, index) => [namespace, names.toModelName(keys[index] as string)]));
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
