import { randomBytes } from "node:crypto";
import { MAX_INVITE_LIFETIME_MS } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import type { KindHooks } from "./kind-context.js";
import { checkGrantableRole } from "./roles.js";

/**
 * Group invites: the role must be grantable by the caller in the group (whoever accepts gets it),
 * the expiration in the future and at most 30 days ahead; the create answer carries the invite
 * `code`, once (the kind rules keep it out of storage and of every later answer).
 *
 * @example
 * KIND_RULES.groupInvites.hooks === GROUP_INVITE_HOOKS; // true
 */
export const GROUP_INVITE_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    checkGrantableRole(ctx, w.caller, w.parentUid, String(w.fields.role), "role", "invite with a role");
    const now = ctx.clock();
    const expires = Date.parse(String(w.fields.expiration));
    if (!(expires > now) || expires - now > MAX_INVITE_LIFETIME_MS) {
      throw invalidArgument([
        { field: "expiration", description: "must be in the future and at most 30 days ahead" },
      ]);
    }
    return {
      ...w.fields,
      singleUse: w.fields.singleUse === true,
      code: randomBytes(24).toString("base64url"),
    };
  },
};
