import type { ElicitationHandler, MCPElicitationRequest, MCPElicitationResponse } from "@mcp-tool-adapter/adapter";
import type { CliContext } from "./io.js";
// Type only (erased): the library itself is imported when a server first asks.
import type * as InquirerPrompts from "@inquirer/prompts";

type Prompts = typeof InquirerPrompts;

type Field = { type?: string; title?: string; description?: string; enum?: unknown[]; default?: unknown };

/**
 * How the CLI answers a server's elicitation: on a terminal it asks the user, field by field,
 * with @inquirer/prompts (loaded only when a server asks); otherwise it declines at once, since
 * nobody is there to answer.
 */
export function cliElicitationHandler(context: CliContext): ElicitationHandler {
  return async (request, { serverName, signal }) => {
    if (!context.isStdinTTY()) {
      context.err(
        context.colors.yellow(
          `Server "${serverName}" asked for input ("${request.message}"); declined because stdin is not a terminal.`,
        ),
      );
      return { action: "decline" };
    }
    const prompts = await import("@inquirer/prompts");
    context.err(context.colors.bold(`Server "${serverName}" asks: ${request.message}`));
    try {
      return await ask(prompts, request, signal);
    } catch (error) {
      // Ctrl+C in a prompt (ExitPromptError) or the server's cancellation: the user did not answer.
      if (error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError"))
        return { action: "cancel" };
      throw error;
    }
  };
}

async function ask(
  prompts: Prompts,
  request: MCPElicitationRequest,
  signal: AbortSignal,
): Promise<MCPElicitationResponse> {
  const context = { signal, output: process.stderr };
  if (request.mode === "url") {
    const go = await prompts.confirm({ message: `Open ${request.url} to continue?`, default: true }, context);
    return { action: go ? "accept" : "decline" };
  }
  if (!(await prompts.confirm({ message: "Answer?", default: true }, context))) return { action: "decline" };
  const schema = request.requestedSchema as { properties?: Record<string, Field>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const content: Record<string, string | number | boolean> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const message = `${field.title ?? name}${field.description === undefined ? "" : ` (${field.description})`}${required.has(name) ? "" : " [optional]"}`;
    if (field.type === "boolean") {
      content[name] = await prompts.confirm({ message, default: field.default === true }, context);
    } else if (Array.isArray(field.enum)) {
      content[name] = await prompts.select(
        { message, choices: field.enum.map((value) => ({ value: String(value) })) },
        context,
      );
    } else if (field.type === "number" || field.type === "integer") {
      const value = await prompts.number(
        { message, required: required.has(name), step: field.type === "integer" ? 1 : "any" },
        context,
      );
      if (value !== undefined) content[name] = value;
    } else {
      const value = await prompts.input(
        {
          message,
          required: required.has(name),
          ...(typeof field.default === "string" ? { default: field.default } : {}),
        },
        context,
      );
      if (value !== "" || required.has(name)) content[name] = value;
    }
  }
  return { action: "accept", content };
}
