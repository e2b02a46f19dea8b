import { randomBytes } from "node:crypto";
import { durationMs, MAX_INVITE_LIFETIME_MS, toWireCapability, WIRE_DURATION_PATTERN } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { formatTimestamp, invalidArgument } from "../core/index.js";
import type { KindContext, KindHooks } from "./kind-context.js";
import { checkGrantableRole } from "./roles.js";

const MAX_TTL_HOURS = MAX_INVITE_LIFETIME_MS / 3_600_000;

// The role an invite grants, as the published GroupInviteRole (iam/group_invites.proto:167-176);
// null once the role is gone ("may be absent if the referenced role has been deleted", :134-136).
function hydrateRole(ctx: KindContext, roleUid: unknown): Record<string, unknown> | null {
  const data = typeof roleUid === "string" ? ctx.table.data("roles", roleUid) : undefined;
  if (data === undefined) return null;
  const role = JSON.parse(data) as { uid: string; name: string; description?: string };
  return {
    uid: role.uid,
    name: role.name,
    description: role.description ?? "",
    // Enum value names on the wire (`repeated chainguard.capabilities.Capability`, :175).
    capabilities: (ctx.roleCapabilities(role.uid) ?? []).map(toWireCapability),
  };
}

/**
 * The wire form of an invite (published `GroupInvite`, `iam/group_invites.proto:115-164`): the
 * stored fields with the role hydrated and unset strings as `""`; no `updateTime` (the message has
 * none) and no `ttl` (input only, `:143-148`).
 *
 * @example
 * const json = inviteOutput(ctx, caller, row.data); // '{"uid":…,"roleUid":…,"role":{…},"expirationTime":…}'
 */
export function inviteOutput(ctx: KindContext, _caller: Caller, data: string): string {
  const { uid, roleUid, email, expirationTime, singleUse, createTime } = JSON.parse(data) as Record<
    string,
    unknown
  >;
  return JSON.stringify({
    uid,
    roleUid,
    role: hydrateRole(ctx, roleUid),
    // Unset strings are "" (protojson EmitUnpopulated): `email` (:141); `code` is "only returned on
    // create" (:157), whose answer puts it over this ""; `keyId` (:160) is not modelled, so unset.
    email: typeof email === "string" ? email : "",
    expirationTime,
    singleUse: singleUse === true,
    code: "",
    keyId: "",
    createTime,
  });
}

/**
 * Group invites: the role must be grantable by the caller in the group (whoever accepts gets it);
 * `ttl` (a protobuf Duration such as `"604800s"`) is positive and at most 30 days, and becomes
 * `expirationTime = now + ttl` (it is input only: never stored nor answered); the create answer
 * carries the invite `code`, once (the kind rules keep it out of storage and of every later answer).
 *
 * @example
 * KIND_RULES.groupInvites.hooks === GROUP_INVITE_HOOKS; // true
 */
export const GROUP_INVITE_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    const { ttl, ...fields } = w.fields;
    checkGrantableRole(ctx, w.caller, w.parentUid, String(fields.roleUid), "roleUid", "invite with a role");
    // The gateway reads a Duration in protojson's form only ("604800s"; "168h" is a 400).
    if (typeof ttl !== "string" || !WIRE_DURATION_PATTERN.test(ttl)) {
      throw invalidArgument([
        { field: "ttl", description: 'must be a protobuf Duration in seconds, such as "604800s"' },
      ]);
    }
    const ms = durationMs(ttl);
    if (ms === undefined || ms > MAX_INVITE_LIFETIME_MS) {
      throw invalidArgument([
        { field: "ttl", description: `must be a positive duration of at most ${MAX_TTL_HOURS}h (30 days)` },
      ]);
    }
    return {
      ...fields,
      expirationTime: formatTimestamp(w.now + ms),
      singleUse: fields.singleUse === true,
      code: randomBytes(24).toString("base64url"),
    };
  },
  // Published GroupInvite has a create_time and no update_time (:162-163).
  stored: (uid, _parentUid, fields, now) => ({ uid, ...fields, createTime: now }),
  output: inviteOutput,
};
