/**
 * The task id of a tools/call answered with a CreateTaskResult (`{ task: { taskId, status } }`),
 * or undefined when the server answered with the tool's result itself.
 */
export function createdTaskId(answer: unknown): string | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const task = (answer as { task?: unknown }).task;
  if (typeof task !== "object" || task === null) return undefined;
  const taskId = (task as { taskId?: unknown }).taskId;
  return typeof taskId === "string" && taskId !== "" ? taskId : undefined;
}
