import { z } from "zod";
import type { GroupInvite } from "../../../sdk/index.js";
import {
  DURATION_RULE,
  durationMs,
  formatDuration,
  GroupInviteSchema,
  Timestamp,
} from "../../../sdk/index.js";
import type { Props } from "../kind-definition.js";
import { defineKind } from "../kind-definition.js";
import { uidInput } from "./inputs.js";
import { defined, parentUidOf } from "./parent-uid.js";

// The sdk's parser, re-exported where the provider's users found it before it moved to the sdk.
export { durationMs } from "../../../sdk/index.js";

/**
 * Inputs of `irv.iam.GroupInvite`: `roleUid` and `ttl` (a duration: `"168h"`, `"1h30m"` or
 * protojson's `"604800s"`), as the published create takes them. `expiration` (an RFC 3339 time) is
 * the deprecated 0.x form: accepted instead of `ttl` for one release and turned into a ttl at the
 * create.
 *
 * @example
 * GroupInviteInputs.parse({ groupUid, roleUid, ttl: "168h", email: "dev@example.com" });
 */
export const GroupInviteInputs = z
  .object({
    groupUid: uidInput("the uid of the group the invite is to"),
    roleUid: uidInput("the uid of the role the invited user gets (see irv.iam.getRole)", "flat"),
    ttl: z
      .string()
      .refine((t) => durationMs(t) !== undefined, { message: DURATION_RULE })
      .optional(),
    /** @deprecated since 0.2: write `ttl`. */
    expiration: Timestamp.optional(),
    email: z.email({ error: "must be an email address" }).optional(),
    singleUse: z.boolean().optional(),
  })
  .superRefine((i, ctx) => {
    if ((i.expiration === undefined) !== (i.ttl === undefined)) return;
    ctx.addIssue({
      code: "custom",
      path: ["ttl"],
      message:
        i.ttl === undefined
          ? 'is required: how long the invite stays valid, such as "168h"'
          : "and expiration (deprecated) were both given: keep ttl only",
    });
  });

// The ttl a create sends: the user's, or what is left until the deprecated expiration.
function ttlOf(ttl: string | undefined, expiration: string | undefined): string {
  if (ttl !== undefined) return ttl;
  const left = Math.round((Date.parse(expiration ?? "") - Date.now()) / 1000) * 1000;
  if (!(left > 0)) throw new Error("group invite expiration (deprecated) must be in the future");
  return formatDuration(left);
}

/**
 * `irv.iam.GroupInvite`: an invitation to a group with a role. The API never updates an invite, so
 * every change replaces it. `code` is known from the create only (a secret output, never read
 * again); `ttl` is input only in the API (`iam/group_invites.proto:143-148`), so the expiration is
 * fixed when the invite is created and read back as `expirationTime`.
 *
 * @example
 * makeProvider(groupInviteKind, getClient);
 */
export const groupInviteKind = defineKind({
  type: "GroupInvite",
  singular: "group invite",
  inputs: GroupInviteInputs,
  inputKeys: ["groupUid", "roleUid", "ttl", "expiration", "email", "singleUse"],
  replaceKeys: ["groupUid", "roleUid", "ttl", "expiration", "email", "singleUse"],
  mutableKeys: [],
  outputs: GroupInviteSchema.pick({
    uid: true,
    role: true,
    expirationTime: true,
    code: true,
    createTime: true,
  }),
  secrets: ["code"],
  writeOnly: ["ttl", "expiration", "code"],
  // "168h" and "604800s" are one ttl; a false singleUse is the default.
  comparable: ({ ttl, singleUse, ...p }: Props) => ({
    ...p,
    ...(typeof ttl === "string" ? { ttl: durationMs(ttl) ?? ttl } : {}),
    ...(singleUse === true ? { singleUse } : {}),
  }),
  create: (client, { groupUid, roleUid, ttl, expiration, email, singleUse }) =>
    client.groupInvites.create(groupUid, {
      roleUid,
      ttl: ttlOf(ttl, expiration),
      ...defined({ email, singleUse }),
    }),
  get: (client, uid) => client.groupInvites.find(uid),
  update: () => Promise.reject(new Error("group invites are replaced, never updated")),
  delete: (client, uid) => client.groupInvites.delete(uid, { ignoreNotFound: true }),
  inputsOf: (s: GroupInvite) => ({
    groupUid: parentUidOf(s.uid),
    roleUid: s.roleUid ?? s.role?.uid ?? "",
    ...defined({ email: s.email, singleUse: s.singleUse || undefined }),
  }),
  outputsOf: (s, inputs) => ({
    ...defined(inputs),
    ...defined({
      expirationTime: s.expirationTime,
      role:
        s.role &&
        defined({
          uid: s.role.uid,
          name: s.role.name,
          description: s.role.description,
          capabilities: s.role.capabilities,
        }),
      code: s.code,
    }),
    uid: s.uid,
    createTime: s.createTime,
  }),
});
