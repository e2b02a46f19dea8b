import { z } from "zod";
import { WireCapability } from "./capabilities.js";
import { OptionalString, OptionalTimestamp, optionalMessage, repeated, Timestamp, Uid } from "./common.js";
import { Duration, durationMs, formatDuration } from "./duration.js";

/**
 * The longest `ttl` an invite may have (the emulator's bound; the published definitions name none).
 *
 * @example
 * durationMs("720h") <= MAX_INVITE_LIFETIME_MS; // true
 */
export const MAX_INVITE_LIFETIME_MS = 30 * 24 * 3600 * 1000;

/**
 * The role an invite grants, as the service hydrates it into every answer (published
 * `GroupInviteRole`, `iam/group_invites.proto:167-176`). `capabilities` travel as the published
 * enum and read as display names (`groups.list`); one this package does not know yet is kept as the
 * server wrote it.
 *
 * @example
 * GroupInviteRole.parse({ uid: viewerUid, name: "viewer", description: "", capabilities: ["CAP_IAM_GROUPS_LIST"] });
 * // → capabilities: ["groups.list"]
 */
export const GroupInviteRole = z.object({
  uid: Uid,
  name: z.string(),
  description: OptionalString,
  capabilities: repeated(WireCapability),
});

/**
 * An invitation to join a group with a role (published `GroupInvite`,
 * `iam/group_invites.proto:115-164`). The invite `code` is in the answer to the create only; later
 * reads never show it. Invites are never updated: replace them. There is no `updateTime` in the
 * published message: read if a server sends one, never required.
 *
 * @example
 * const invite = GroupInvite.parse(body);
 * invite.role?.name;       // "viewer"; absent when the role has been deleted since
 * invite.expirationTime;   // "2026-12-02T10:00:00.000Z"
 */
export const GroupInvite = z.object({
  uid: Uid,
  roleUid: OptionalString,
  role: optionalMessage(GroupInviteRole),
  email: OptionalString,
  expirationTime: OptionalTimestamp,
  singleUse: z
    .boolean()
    .nullish()
    .transform((v) => v === true),
  /** Only in the answer to the create. */
  code: OptionalString,
  keyId: OptionalString,
  createTime: Timestamp,
  updateTime: OptionalTimestamp,
});
/**
 * A group invite.
 *
 * @example
 * const { code } = await client.groupInvites.create(groupUid, { roleUid: viewerUid, ttl: "168h" });
 */
export type GroupInvite = z.infer<typeof GroupInvite>;

/**
 * Body of `POST /iam/v2beta1/groupInvites/<group_uid>` (published `:30-31`, fields `:132-154`):
 * `roleUid` and `ttl` are required. `ttl` may be written `"168h"` or `"1h30m"`; the client sends it
 * as protojson's Duration (`"604800s"`, see {@link encodeGroupInvite}). The server checks it against
 * its own bound ({@link MAX_INVITE_LIFETIME_MS} in the emulator).
 *
 * @example
 * GroupInviteCreate.parse({ roleUid: viewerUid, ttl: "168h", email: "dev@example.com", singleUse: true });
 */
export const GroupInviteCreate = z.object({
  roleUid: z.string().min(1, { message: "is required" }),
  ttl: Duration,
  email: z.email({ error: "must be an email address" }).optional(),
  singleUse: z.boolean().optional(),
});
/**
 * Body of a group invite create.
 *
 * @example
 * const body: GroupInviteCreate = { roleUid: viewerUid, ttl: "24h" };
 */
export type GroupInviteCreate = z.infer<typeof GroupInviteCreate>;

/**
 * The wire form of an invite create body: `ttl` as protojson's Duration (`"168h"` → `"604800s"`);
 * a text that is no duration is sent as is, for the server to name.
 *
 * @example
 * encodeGroupInvite({ roleUid, ttl: "168h" }); // { roleUid, ttl: "604800s" }
 */
export function encodeGroupInvite(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.ttl !== "string") return body;
  const ms = durationMs(body.ttl);
  return ms === undefined ? body : { ...body, ttl: formatDuration(ms) };
}
