import { CORRELATION_RULES, effectiveCorrelationRule } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import type { KindHooks } from "./kind-context.js";
import { refuseNotEmpty } from "./not-empty.js";
import { checkGrantableRole } from "./roles.js";

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);

// An empty secret is no secret: stored as absent, so "at least one of clientSecret or pkceEnabled"
// sees it as missing.
function withoutEmptySecret(oidc: Fields): void {
  if (oidc.clientSecret === "") delete oidc.clientSecret;
}

/**
 * Identity providers: the default role must be grantable by the caller in the group (everyone who
 * logs in through the provider gets it). On update, as the published `IdentityProvider.OIDC`
 * comments say (iam/v2beta1/identity_providers.proto):
 * - an empty or absent `oidc.clientSecret` keeps the stored secret unless the mask names
 *   `oidc.clientSecret` (without a mask: the body holds it), which clears it (a confidential client
 *   becoming a public, PKCE-only one);
 * - `oidc.correlationRule` is immutable: restating the rule in force, or leaving it unset, is no
 *   change; another rule is code 3 (unset is `CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID`).
 * An identity provider with external group role mappings under it is not deleted (code 9).
 *
 * @example
 * KIND_RULES.identityProviders.hooks === IDENTITY_PROVIDER_HOOKS; // true
 */
export const IDENTITY_PROVIDER_HOOKS: KindHooks = {
  // Its external group role mappings are grants: they go first, by their own delete (issue 45).
  beforeDelete(ctx, _caller, uid) {
    refuseNotEmpty(ctx, uid, "identity provider", "external group role mappings", (c) => {
      const m = JSON.parse(c.data) as { externalGroupId?: string };
      return `an external group role mapping of ${JSON.stringify(m.externalGroupId ?? "")}`;
    });
  },
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
    if (isObject(w.fields.oidc)) withoutEmptySecret(w.fields.oidc);
    return w.fields;
  },
  completeUpdate(u) {
    const before = isObject(u.current.oidc) ? u.current.oidc : {};
    const after = u.next.oidc;
    if (!isObject(after)) return;
    if (!u.paths.includes("oidc.clientSecret") && !after.clientSecret && before.clientSecret)
      after.clientSecret = before.clientSecret;
    withoutEmptySecret(after);
    const rule = after.correlationRule;
    // A name the enum lacks is left to the create schema's rule (code 3 listing the names).
    if (typeof rule === "string" && !(CORRELATION_RULES as readonly string[]).includes(rule)) return;
    const unset = rule === undefined || rule === null || rule === CORRELATION_RULES[0];
    if (!unset && effectiveCorrelationRule(rule) !== effectiveCorrelationRule(before.correlationRule)) {
      throw invalidArgument([
        {
          field: "oidc.correlationRule",
          description: `is immutable: the identity provider matches logins with ${effectiveCorrelationRule(before.correlationRule)}; create a new identity provider for another rule`,
        },
      ]);
    }
    // Unset or restated: the rule in force stays, as stored.
    if (before.correlationRule === undefined) delete after.correlationRule;
    else after.correlationRule = before.correlationRule;
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
