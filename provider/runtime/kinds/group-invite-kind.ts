import { z } from "zod";
import type { GroupInvite } from "../../../sdk/index.js";
import { Timestamp } from "../../../sdk/index.js";
import type { Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { uidInput } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * A friendly duration (`"168h"`, `"30m"`, `"1h30m"`, `"90s"`) in milliseconds, or undefined.
 *
 * @example
 * durationMs("168h"); // 604800000
 */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m || text === "") return undefined;
  const [h = "0", min = "0", s = "0"] = [m[1], m[2], m[3]];
  const ms = ((Number(h) * 60 + Number(min)) * 60 + Number(s)) * 1000;
  return ms > 0 ? ms : undefined;
}

/**
 * Inputs of `irv.iam.GroupInvite`: exactly one of `expiration` (RFC 3339) and `ttl` (a duration).
 *
 * @example
 * GroupInviteInputs.parse({ groupUid, roleUid, ttl: "168h", email: "dev@example.com" });
 */
export const GroupInviteInputs = z
  .object({
    groupUid: uidInput("the uid of the group the invite is to"),
    roleUid: uidInput("the uid of the role the invited user gets (see irv.iam.getRole)", "flat"),
    expiration: Timestamp.optional(),
    ttl: z
      .string()
      .refine((t) => durationMs(t) !== undefined, {
        message:
          'must be a positive duration in hours, minutes and seconds, such as "168h", "30m" or "1h30m"',
      })
      .optional(),
    email: z.email({ error: "must be an email address" }).optional(),
    singleUse: z.boolean().optional(),
  })
  .superRefine((i, ctx) => {
    if ((i.expiration === undefined) !== (i.ttl === undefined)) return;
    ctx.addIssue({
      code: "custom",
      path: [i.ttl === undefined ? "expiration" : "ttl"],
      message: `exactly one of expiration (an RFC 3339 time) and ttl (a duration such as "168h") is required${i.ttl === undefined ? ", got none" : ", got both"}`,
    });
  });

/**
 * `irv.iam.GroupInvite`: an invitation to a group with a role. The API never updates an invite, so
 * every change replaces it. `code` is known from the create only (a secret output, never read
 * again); with `ttl` the expiration is fixed when the invite is created.
 *
 * @example
 * makeProvider(groupInviteKind, getClient);
 */
export const groupInviteKind = defineKind({
  type: "GroupInvite",
  singular: "group invite",
  inputs: GroupInviteInputs,
  inputKeys: ["groupUid", "roleUid", "expiration", "ttl", "email", "singleUse"],
  replaceKeys: ["groupUid", "roleUid", "expiration", "ttl", "email", "singleUse"],
  mutableKeys: [],
  writeOnly: ["ttl", "code"],
  // With a ttl, the stored expiration is the outcome of it, not an input; a false singleUse is the default.
  comparable: ({ expiration, singleUse, ...p }: Props) => ({
    ...p,
    ...(p.ttl === undefined ? { expiration } : {}),
    ...(singleUse === true ? { singleUse } : {}),
  }),
  create: (client, { groupUid, roleUid, expiration, ttl, email, singleUse }) =>
    client.groupInvites.create(groupUid, {
      role: roleUid,
      expiration: expiration ?? new Date(Date.now() + (durationMs(ttl ?? "") ?? 0)).toISOString(),
      ...defined({ email, singleUse }),
    }),
  get: (client, uid) => client.groupInvites.find(uid),
  update: () => Promise.reject(new Error("group invites are replaced, never updated")),
  delete: (client, uid) => client.groupInvites.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: GroupInvite) => ({
    groupUid: parentUidOf(s.uid),
    roleUid: s.role,
    expiration: s.expiration,
    ...defined({ email: s.email, singleUse: s.singleUse || undefined }),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    expiration: s.expiration,
    ...defined({ code: s.code }),
    uid: s.uid,
    createTime: s.createTime,
    updateTime: s.updateTime,
  }),
});
