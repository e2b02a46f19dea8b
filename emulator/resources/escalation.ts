import type { Capability } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { permissionDenied } from "../core/index.js";
import type { KindContext } from "./kind-context.js";

/**
 * Refuses (code 7) a write that would hand out capabilities the caller does not itself hold on
 * `scopeUid`: defining or changing a role, binding one. The message names what is missing.
 *
 * @example
 * refuseEscalation(caller, role.capabilities, groupUid, "bind this role here");
 */
export function refuseEscalation(
  caller: Caller,
  capabilities: Iterable<Capability>,
  scopeUid: string,
  what: string,
): void {
  const missing = caller.lacking(capabilities, scopeUid);
  if (missing.length > 0) {
    throw permissionDenied(
      `${what}: it would grant ${missing.join(", ")}, which the caller does not hold on ${JSON.stringify(scopeUid)} (no privilege escalation)`,
    );
  }
}

/**
 * Refuses (code 7) a change of who may assume an identity — or its delete — unless the caller holds,
 * at each of the identity's role bindings, every capability that binding grants. Otherwise an
 * editor could re-point an owner identity at itself, assume it and bind itself owner.
 *
 * @example
 * refuseIdentityTakeover(ctx, caller, identityUid, "change who may assume identity …");
 */
export function refuseIdentityTakeover(
  ctx: KindContext,
  caller: Caller,
  identityUid: string,
  what: string,
): void {
  for (const b of ctx.table.referringToIdentity(identityUid)) {
    refuseEscalation(caller, ctx.roleCapabilities(b.refRole ?? "") ?? [], b.parentUid, what);
  }
}
