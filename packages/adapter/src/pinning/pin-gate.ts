import type { Logger, MCPToolDescriptor } from "../types.js";
import { describePinChanges, fingerprintTool, type ServerToolPins } from "./fingerprint.js";

/** What happens to a tool whose definition differs from its pin, or that has no pin. */
export type PinAction = "withhold" | "warn" | "allow";

/** The adapter's `pinning` option: the approved definitions of this server's tools, and what to do on drift. */
export interface ToolPinningOptions {
  readonly pins: ServerToolPins;
  /** A pinned tool whose definition changed. Default "withhold". A read-only tool that now writes is always withheld. */
  readonly onDrift?: Exclude<PinAction, "allow">;
  /** A tool the lock does not know (added since pinning). Default "warn". */
  readonly onUnpinned?: PinAction;
}

/** One tool that did not match the lock, and what was done about it. */
export interface ToolPinFinding {
  readonly tool: string;
  /** "changed": differs from its pin; "escalated": was read-only, now writes; "unpinned": not in the lock. */
  readonly status: "changed" | "escalated" | "unpinned";
  readonly action: "withheld" | "warned";
  /** What differs, in words (empty for an unpinned tool). */
  readonly changes: readonly string[];
  readonly message: string;
}

/** Decides, per discovery, which tools stay; findings are logged and kept for `pinFindings`. */
export class PinGate {
  readonly #options: ToolPinningOptions;
  readonly #serverName: string;
  readonly #logger: Logger | undefined;
  #findings: readonly ToolPinFinding[] = Object.freeze([]);

  constructor(options: ToolPinningOptions, serverName: string, logger: Logger | undefined) {
    this.#options = options;
    this.#serverName = serverName;
    this.#logger = logger;
  }

  get findings(): readonly ToolPinFinding[] {
    return this.#findings;
  }

  /** The finding that withheld `name` in the last check, if any. */
  withheld(name: string): ToolPinFinding | undefined {
    return this.#findings.find((finding) => finding.tool === name && finding.action === "withheld");
  }

  /** The names among `tools` to withhold; records and logs every finding. */
  async check(tools: readonly MCPToolDescriptor[]): Promise<ReadonlySet<string>> {
    const { pins, onDrift = "withhold", onUnpinned = "warn" } = this.#options;
    const findings: ToolPinFinding[] = [];
    for (const tool of tools) {
      const pinned = Object.hasOwn(pins.tools, tool.name) ? pins.tools[tool.name] : undefined;
      if (pinned === undefined) {
        if (onUnpinned === "allow") continue;
        const action = onUnpinned === "withhold" ? "withheld" : "warned";
        findings.push({
          tool: tool.name,
          status: "unpinned",
          action,
          changes: [],
          message: `Tool "${tool.name}" of MCP server "${this.#serverName}" is not in the lock file (added since it was pinned)${action === "withheld" ? "; withheld" : ""}. Review it and run "mcp-tool-adapter pin" to approve it.`,
        });
        continue;
      }
      const current = await fingerprintTool(tool);
      if (current.fingerprint === pinned.fingerprint) continue;
      const changes = describePinChanges(pinned, current);
      const escalated = pinned.capabilities.readOnly && !current.capabilities.readOnly;
      const action = escalated || onDrift === "withhold" ? "withheld" : "warned";
      findings.push({
        tool: tool.name,
        status: escalated ? "escalated" : "changed",
        action,
        changes,
        message: `Tool "${tool.name}" of MCP server "${this.#serverName}" changed since it was pinned (${changes.join(", ") || "definition"})${escalated ? "; it was read-only and may now write, so it is withheld whatever the policy" : action === "withheld" ? "; withheld" : ""}. Review the change and run "mcp-tool-adapter pin" to approve it.`,
      });
    }
    this.#findings = Object.freeze(findings.map((finding) => Object.freeze(finding)));
    for (const finding of findings)
      this.#logger?.warn?.(finding.message, { tool: finding.tool, changes: finding.changes });
    return new Set(findings.filter((finding) => finding.action === "withheld").map((finding) => finding.tool));
  }
}
