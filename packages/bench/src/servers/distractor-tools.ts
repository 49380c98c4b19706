import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/**
 * Generated tools for the tool-search scenario: names, descriptions and parameters that read like
 * the tools of business services (a CRM, billing, HR, ...), distinct per tool, so a query matches
 * the handful of tools that share its words rather than all of them. Deterministic: tool `index`
 * is always the same tool. They share the everyday verbs and some nouns (user, message, report,
 * comment) with real servers' tools on purpose: they are distractors, not noise.
 */
export function distractorTool(index: number): Tool {
  const verb = VERBS[index % VERBS.length]!;
  const rest = Math.floor(index / VERBS.length);
  const object = OBJECTS[rest % OBJECTS.length]!;
  const qualifier = QUALIFIERS[Math.floor(rest / OBJECTS.length) % QUALIFIERS.length]!;
  const service = SERVICES[index % SERVICES.length]!;
  const noun = qualifier === "" ? object : `${qualifier} ${object}`;
  const round = Math.floor(index / (VERBS.length * OBJECTS.length * QUALIFIERS.length));
  const suffix = round === 0 ? "" : `_v${round + 1}`;
  return {
    name: `${verb.name}_${noun.replaceAll(" ", "_")}${suffix}`,
    description: `${verb.phrase} ${noun} records in ${service}. ${DETAILS[index % DETAILS.length]!.replace("%", object)}`,
    inputSchema: {
      type: "object",
      properties: {
        [`${object.replaceAll(" ", "_")}_id`]: { type: "string", description: `Identifier of the ${object}` },
        workspace: { type: "string", description: `The ${service} workspace` },
        ...(index % 3 === 0 ? { page_size: { type: "integer", minimum: 1, maximum: 200 } } : {}),
        ...(index % 5 === 0 ? { notes: { type: "string", description: `Free text kept with the ${object}` } } : {}),
      },
      required: [`${object.replaceAll(" ", "_")}_id`],
    },
  };
}

const VERBS = [
  { name: "get", phrase: "Fetches one of the" },
  { name: "list", phrase: "Lists the" },
  { name: "create", phrase: "Creates new" },
  { name: "update", phrase: "Updates fields of" },
  { name: "archive", phrase: "Archives" },
  { name: "export", phrase: "Exports" },
  { name: "approve", phrase: "Approves pending" },
  { name: "assign", phrase: "Assigns an owner to" },
  { name: "merge", phrase: "Merges duplicate" },
  { name: "tag", phrase: "Adds labels to" },
  { name: "restore", phrase: "Restores archived" },
  { name: "summarize", phrase: "Summarizes" },
  { name: "import", phrase: "Imports" },
  { name: "validate", phrase: "Validates" },
  { name: "schedule", phrase: "Schedules a review of" },
  { name: "count", phrase: "Counts" },
] as const;

const OBJECTS = [
  "invoice",
  "customer",
  "lead",
  "opportunity",
  "contract",
  "quote",
  "shipment",
  "warehouse",
  "supplier",
  "purchase order",
  "payroll run",
  "timesheet",
  "expense claim",
  "vacation request",
  "candidate",
  "job posting",
  "interview",
  "ledger entry",
  "tax filing",
  "budget line",
  "campaign",
  "newsletter",
  "coupon",
  "loyalty account",
  "subscription",
  "refund",
  "chargeback",
  "support case",
  "knowledge article",
  "survey",
  "feedback note",
  "asset",
  "license",
  "vendor",
  "fleet vehicle",
  "maintenance order",
  "inspection",
  "safety incident",
  "training course",
  "certificate",
  "booking",
  "room",
  "menu item",
  "recipe",
  "inventory item",
  "price list",
  "sales territory",
  "commission",
  "forecast",
  "audit trail",
  "compliance policy",
  "risk",
  "patient visit",
  "prescription",
  "lab order",
  "insurance claim",
  "donation",
  "grant",
  "volunteer",
  "membership",
  "user",
  "message",
  "report",
  "comment",
] as const;

const QUALIFIERS = ["", "draft", "shared", "overdue", "recurring", "archived"] as const;

const SERVICES = [
  "the CRM",
  "the billing system",
  "the HR suite",
  "the ERP",
  "the help desk",
  "the marketing hub",
  "the accounting ledger",
  "the logistics portal",
  "the clinic system",
  "the facilities tracker",
] as const;

const DETAILS = [
  "Returns the % with its status and owner.",
  "Requires the workspace to be set.",
  "Results are sorted by last change.",
  "The % must exist; unknown identifiers are rejected.",
  "Changes are recorded in the audit trail.",
  "Works on up to 200 records at a time.",
] as const;
