import type { KindHooks } from "./kind-context.js";
import { checkGrantableRole } from "./roles.js";

/**
 * Identity providers: the default role must be grantable by the caller in the group (everyone who
 * logs in through the provider gets it).
 *
 * @example
 * KIND_RULES.identityProviders.hooks === IDENTITY_PROVIDER_HOOKS; // true
 */
export const IDENTITY_PROVIDER_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    if (typeof w.fields.defaultRole === "string") {
      checkGrantableRole(
        ctx,
        w.caller,
        w.parentUid,
        w.fields.defaultRole,
        "defaultRole",
        "make a default role",
      );
    }
    return w.fields;
  },
  beforeUpdate(ctx, u) {
    if (typeof u.next.defaultRole === "string" && u.next.defaultRole !== u.current.defaultRole) {
      checkGrantableRole(
        ctx,
        u.caller,
        u.row.parentUid,
        u.next.defaultRole,
        "defaultRole",
        "make a default role",
      );
    }
  },
};
