import { mergeAllOf } from "./merge-all-of.js";
import { compactJson, type SchemaNode } from "./schema-keywords.js";

/*
 * What every dialect converter does around one schema node: fold a mergeable allOf, collect what
 * the provider cannot express as notes for the model, and report it. Thousands of tools are
 * converted at once, from the registry's frozen schemas: so plain loops here, no array callbacks
 * (V8 runs those slowly on frozen arrays) and no per-node closures.
 */

/**
 * Where a conversion writes what it changed; undefined when nobody asked (then no note text and
 * no JSON pointer is built: `changes?.push(...)` does not even evaluate its argument).
 */
export type ChangeLog = string[] | undefined;

/** The JSON pointer of a node for change notes ("/" for the root). */
export function pointerOf(path: string): string {
  return path === "" ? "/" : path;
}

/**
 * The node a converter reads: its allOf merged into it when that keeps the meaning; undefined
 * when it has an allOf that cannot be merged (the converter then reads the node as it is).
 */
export function withMergedAllOf(node: SchemaNode, at: string, changes: ChangeLog): SchemaNode | undefined {
  if (!Array.isArray(node.allOf)) return node;
  const merged = mergeAllOf(node);
  if (merged === undefined) return undefined;
  changes?.push(`${at}: allOf of object schemas merged into one object`);
  return merged;
}

/**
 * "keyword: " for the keywords notes are made for most, made once: a fresh one per note was a
 * string of garbage per constraint of every tool converted.
 */
const LABELS = new Map<string, string>(
  [
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "minItems",
    "maxItems",
    "uniqueItems",
    "default",
    "examples",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
  ].map((key) => [key, `${key}: `]),
);

/**
 * Constraints the model should still read, written into the node's description. Made only for a
 * node that has some, and taken from a small pool (`DescriptionNotes.take`): a converter holds one
 * per level of the node it is in, and an object per node with notes was garbage for every tool
 * converted. Which keywords moved is kept only when changes are reported.
 */
export class DescriptionNotes {
  // Joined strings, not arrays: most nodes have none or one, and a pushed-to array costs more.
  #keys: string | undefined;
  #texts: string | undefined;
  #reporting = false;
  /**
   * The first note, while it is the only one, when it is a limit or default (a keyword of LABELS
   * with a number or boolean): its text is then taken from SHARED_NOTES when the notes are
   * finished, as a node's whole description when it had none, instead of being made per node.
   */
  #pendingKey: string | undefined;
  #pendingValue: number | boolean = false;

  private constructor() {}

  /** Empty notes; hand them back with `finish`, which ends their use. */
  static take(changes: ChangeLog): DescriptionNotes {
    const notes = FREE_NOTES.pop() ?? new DescriptionNotes();
    notes.#reporting = changes !== undefined;
    return notes;
  }

  /** `key: <value as compact JSON>`. */
  add(key: string, value: unknown): void {
    if (
      this.#texts === undefined &&
      this.#pendingKey === undefined &&
      (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) &&
      LABELS.has(key)
    ) {
      if (this.#reporting) this.#keys = key;
      this.#pendingKey = key;
      this.#pendingValue = value;
      return;
    }
    this.addText(key, compactJson(value));
  }

  /** `key: text`, for a note that is already words. */
  addText(key: string, text: string): void {
    const pendingKey = this.#pendingKey;
    if (pendingKey !== undefined) {
      this.#texts = sharedNote(pendingKey, this.#pendingValue).note;
      this.#pendingKey = undefined;
    }
    if (this.#reporting) this.#keys = this.#keys === undefined ? key : `${this.#keys}, ${key}`;
    const note = (LABELS.get(key) ?? `${key}: `) + text;
    this.#texts = this.#texts === undefined ? note : `${this.#texts}; ${note}`;
  }

  /**
   * Appends the notes to `out.description` (as `describeWithNotes` does), reports which keywords
   * moved there, and returns these notes to the pool: do not use them afterwards.
   */
  finish(out: SchemaNode, at: string, changes: ChangeLog): void {
    const pendingKey = this.#pendingKey;
    const texts = this.#texts;
    if (pendingKey !== undefined) {
      const shared = sharedNote(pendingKey, this.#pendingValue);
      const base = typeof out.description === "string" ? out.description.trim() : "";
      out.description = base === "" ? shared.alone : `${base} (${shared.note})`;
    } else if (texts === undefined) finishWithoutNotes(out);
    else {
      const base = typeof out.description === "string" ? out.description.trim() : "";
      out.description = base === "" ? `(${texts})` : `${base} (${texts})`;
    }
    if (this.#keys !== undefined) changes?.push(`${at}: ${this.#keys} moved into the description`);
    this.#keys = undefined;
    this.#texts = undefined;
    this.#pendingKey = undefined;
    if (FREE_NOTES.length < MAX_FREE_NOTES) FREE_NOTES.push(this);
  }
}

interface SharedNote {
  /** `key: value`. */
  readonly note: string;
  /** `(key: value)`, the description of a node that has no other. */
  readonly alone: string;
}

/**
 * Notes of limits and defaults, made once per keyword and value: the same few ("default: 10",
 * "maxLength: 50") recur across the tools of a server, and a string per node was both garbage
 * and a good part of what a conversion keeps. At most MAX_SHARED_PER_KEY values per keyword are
 * kept, so a schema with many distinct limits cannot grow the table.
 */
const SHARED_NOTES = new Map<string, Map<number | boolean, SharedNote>>();
const MAX_SHARED_PER_KEY = 64;

function sharedNote(key: string, value: number | boolean): SharedNote {
  let byValue = SHARED_NOTES.get(key);
  const known = byValue?.get(value);
  if (known !== undefined) return known;
  const note = (LABELS.get(key) ?? `${key}: `) + String(value);
  const made: SharedNote = { note, alone: `(${note})` };
  if (byValue === undefined) SHARED_NOTES.set(key, (byValue = new Map<number | boolean, SharedNote>()));
  if (byValue.size < MAX_SHARED_PER_KEY) byValue.set(value, made);
  return made;
}

/** Notes not in use. A conversion is synchronous and holds one per nesting level at most. */
const FREE_NOTES: DescriptionNotes[] = [];
const MAX_FREE_NOTES = 32;

/** What `DescriptionNotes.finish` does for a node without notes (most nodes): the description trimmed. */
export function finishWithoutNotes(out: SchemaNode): void {
  const description = out.description;
  if (typeof description !== "string") return;
  const trimmed = description.trim();
  if (trimmed !== "" && trimmed !== description) out.description = trimmed;
}

export function reportDropped(at: string, dropped: readonly string[] | undefined, changes: ChangeLog): void {
  if (dropped !== undefined) changes?.push(`${at}: ${dropped.join(", ")} removed`);
}

/** The strings of a `required` list (anything else in it is ignored). */
export function requiredNames(list: unknown): string[] {
  const names: string[] = [];
  if (!Array.isArray(list)) return names;
  for (let index = 0; index < list.length; index += 1) {
    const name: unknown = list[index];
    if (typeof name === "string") names.push(name);
  }
  return names;
}

/** Plain assignment, except for "__proto__", which must stay an own property (a property may be named so). */
export function defineKey(target: SchemaNode, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
