import type { Identity } from "pulumi-irv/sdk";
import { IDENTITY_VARIANTS } from "pulumi-irv/sdk";
import { refuseIdentityTakeover } from "./escalation.js";
import type { KindHooks } from "./kind-context.js";

/**
 * The issuer and subject a role binding shows for its identity: exact values or the patterns, or
 * nothing for AWS and service-principal identities.
 *
 * @example
 * identityIssuerSubject({ claimMatch: { issuer: "https://i", subjectPattern: "repo:acme/.*" } });
 * // { issuer: "https://i", subject: "repo:acme/.*" }
 */
export function identityIssuerSubject(identity: Partial<Identity>): { issuer?: string; subject?: string } {
  const m = identity.claimMatch;
  if (m !== undefined) {
    return { issuer: m.issuer ?? m.issuerPattern ?? "", subject: m.subject ?? m.subjectPattern ?? "" };
  }
  const s = identity.static;
  if (s !== undefined) return { issuer: s.issuer, subject: s.subject };
  return {};
}

const decidesWho = (path: string) => IDENTITY_VARIANTS.some((v) => path === v || path.startsWith(`${v}.`));

/**
 * Identities: whoever changes who may assume one, or deletes it, must hold everything it holds
 * (issue 10 item 8); a delete takes the identity's role bindings with it.
 *
 * @example
 * KIND_RULES.identities.hooks === IDENTITY_HOOKS; // true
 */
export const IDENTITY_HOOKS: KindHooks = {
  beforeUpdate(ctx, u) {
    if (u.paths.some(decidesWho)) {
      refuseIdentityTakeover(
        ctx,
        u.caller,
        u.row.uid,
        `change who may assume identity ${JSON.stringify(u.row.uid)}`,
      );
    }
  },
  beforeDelete(ctx, caller, row) {
    refuseIdentityTakeover(ctx, caller, row.uid, `delete identity ${JSON.stringify(row.uid)}`);
    ctx.table.deleteReferringToIdentity(row.uid);
  },
};
