import { describe, expect, it } from "vitest";
import { NotificationRoutes } from "../src/connection/notification-routes.js";

describe("NotificationRoutes", () => {
  it("hands a notification's params to the one handler of its method, and ignores methods nobody follows", () => {
    const routes = new NotificationRoutes();
    const heard: unknown[] = [];
    routes.on("notifications/message", (params, session) => heard.push({ params, session }));
    routes.route({ method: "notifications/message", params: { level: "info", data: "x" } }, undefined);
    routes.route({ method: "notifications/unknown", params: {} }, undefined);
    expect(heard).toEqual([{ params: { level: "info", data: "x" }, session: undefined }]);
  });

  it("refuses a second handler for a method, naming it", () => {
    const routes = new NotificationRoutes();
    routes.on("notifications/tools/list_changed", () => undefined);
    expect(() => {
      routes.on("notifications/tools/list_changed", () => undefined);
    }).toThrow(/"notifications\/tools\/list_changed" already has a handler/);
  });
});
