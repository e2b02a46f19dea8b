import { z } from "zod";
import { Timestamp, Uid } from "./common.js";

/**
 * How far ahead an invite may expire.
 *
 * @example
 * Date.parse(invite.expiration) - Date.now() <= MAX_INVITE_LIFETIME_MS; // true
 */
export const MAX_INVITE_LIFETIME_MS = 30 * 24 * 3600 * 1000;

/**
 * An invitation to join a group with a role. The invite `code` is in the answer to the create only;
 * later reads never show it. Invites are not updated: replace them.
 *
 * @example
 * const invite = GroupInvite.parse(body);
 */
export const GroupInvite = z.object({
  uid: Uid,
  role: Uid,
  expiration: Timestamp,
  email: z.string().optional(),
  singleUse: z.boolean().optional().default(false),
  /** Only in the answer to the create. */
  code: z.string().optional(),
  createTime: Timestamp,
  updateTime: Timestamp,
});
/**
 * A group invite.
 *
 * @example
 * const { code } = await client.groupInvites.create(groupUid, { role: viewerUid, expiration });
 */
export type GroupInvite = z.infer<typeof GroupInvite>;

/**
 * Body of `POST /iam/v2beta1/groupInvites/<group_uid>`. `expiration` must be in the future and at
 * most {@link MAX_INVITE_LIFETIME_MS} ahead (checked by the server against its clock).
 *
 * @example
 * GroupInviteCreate.parse({ role: viewerUid, expiration: "2026-12-01T00:00:00Z", email: "dev@example.com", singleUse: true });
 */
export const GroupInviteCreate = z.object({
  role: z.string().min(1, { message: "is required" }),
  expiration: Timestamp,
  email: z.email({ error: "must be an email address" }).optional(),
  singleUse: z.boolean().optional(),
});
/**
 * Body of a group invite create.
 *
 * @example
 * const body: GroupInviteCreate = { role: viewerUid, expiration: new Date(Date.now() + 864e5).toISOString() };
 */
export type GroupInviteCreate = z.infer<typeof GroupInviteCreate>;
