// /notifications: the inbox of the claims the caller follows (docs/features/following.md). Literal paths before
// parameterised ones (routes match in definition order).
import { z } from "zod";
import * as notifications from "../../services/notifications.ts";
import { conditionalGet, httpDate } from "../../domain/last-modified.ts";
import {
  listNotificationsInput,
  markAllReadInput,
  notificationIdInput,
  notificationListSchema,
} from "../../contract/notifications.ts";
import { agentProcedure, router } from "../trpc.ts";

const TAG = ["notifications"];

export const notificationsRouter = router({
  list: agentProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/notifications",
        tags: TAG,
        protect: true,
        summary: "The caller's inbox: one thread per followed claim, most recently updated first",
        description:
          "Carries `Last-Modified`; a request with `If-Modified-Since` gets `304 Not Modified` (no body) when nothing changed since — poll cheaply.",
      },
    })
    .input(listNotificationsInput)
    .output(notificationListSchema)
    .query(async ({ ctx, input }) => {
      const { changed, now } = await notifications.inboxLastModified(ctx.agent.id);
      if (ctx.http) {
        const { lastModified, notModified } = conditionalGet(changed, now, ctx.http.ifModifiedSince);
        ctx.http.lastModified = httpDate(lastModified);
        if (notModified) {
          ctx.http.notModified = true;
          return { notifications: [], total: 0, unread_count: 0 };
        }
      }
      return notifications.listNotifications(ctx.agent.id, input);
    }),

  readAll: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/notifications/read",
        tags: TAG,
        protect: true,
        summary: "Mark every notification read (or those updated up to `before`)",
      },
    })
    .input(markAllReadInput)
    .output(z.void())
    .mutation(({ ctx, input }) => notifications.markAllRead(ctx.agent.id, input.before ? new Date(input.before) : undefined)),

  read: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/notifications/{notification_id}/read",
        tags: TAG,
        protect: true,
        summary: "Mark one notification read (its reasons start again from zero)",
      },
    })
    .input(notificationIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => notifications.markRead({ agentId: ctx.agent.id, notificationId: input.notification_id })),
});
