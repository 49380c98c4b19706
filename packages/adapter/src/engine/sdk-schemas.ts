import {
  CancelTaskRequestSchema,
  CreateMessageRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { MCPAnsweredRequest, MCPFollowedNotification } from "@mcp-tool-adapter/core/protocol";

/**
 * SDK 1.x's schema for each protocol message the built-in engines handle. Which messages those
 * are is core's list (`@mcp-tool-adapter/core/protocol`); the record types make a method added
 * there a type error here until it has its schema.
 */

type NotificationSchema =
  | typeof ToolListChangedNotificationSchema
  | typeof ResourceListChangedNotificationSchema
  | typeof ResourceUpdatedNotificationSchema
  | typeof PromptListChangedNotificationSchema
  | typeof LoggingMessageNotificationSchema;

type RequestSchema =
  | typeof ElicitRequestSchema
  | typeof CreateMessageRequestSchema
  | typeof ListRootsRequestSchema
  | typeof GetTaskRequestSchema
  | typeof GetTaskPayloadRequestSchema
  | typeof ListTasksRequestSchema
  | typeof CancelTaskRequestSchema;

/** The SDK schema each followed notification is checked against before the host hears it. */
export const NOTIFICATION_SCHEMAS: Readonly<Record<MCPFollowedNotification, NotificationSchema>> = {
  "notifications/tools/list_changed": ToolListChangedNotificationSchema,
  "notifications/resources/list_changed": ResourceListChangedNotificationSchema,
  "notifications/resources/updated": ResourceUpdatedNotificationSchema,
  "notifications/prompts/list_changed": PromptListChangedNotificationSchema,
  "notifications/message": LoggingMessageNotificationSchema,
};

/** The SDK schema each answerable server-to-client request is checked against. */
export const REQUEST_SCHEMAS: Readonly<Record<MCPAnsweredRequest, RequestSchema>> = {
  "elicitation/create": ElicitRequestSchema,
  "sampling/createMessage": CreateMessageRequestSchema,
  "roots/list": ListRootsRequestSchema,
  "tasks/get": GetTaskRequestSchema,
  "tasks/result": GetTaskPayloadRequestSchema,
  "tasks/list": ListTasksRequestSchema,
  "tasks/cancel": CancelTaskRequestSchema,
};
