import type { Capability } from "pulumi-irv/sdk";
import { Code } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { BUILT_IN_ROLES } from "../auth/index.js";
import {
  ApiFault,
  failedPrecondition,
  invalidArgument,
  isSelfOrDescendant,
  permissionDenied,
} from "../core/index.js";
import { refuseEscalation } from "./escalation.js";
import type { KindContext, KindHooks } from "./kind-context.js";
import { MAX_LISTED_VIOLATIONS } from "./limits.js";

const sorted = (caps: unknown): Capability[] => [...new Set((caps ?? []) as Capability[])].sort();

function refuseBuiltInName(name: unknown): void {
  if (BUILT_IN_ROLES.some((r) => r.name === name)) {
    throw new ApiFault(
      Code.ALREADY_EXISTS,
      `a built-in role is named ${JSON.stringify(name)}; choose another name`,
    );
  }
}

function refuseBuiltIn(ctx: KindContext, uid: string, verb: string): void {
  if (ctx.isBuiltInRole(uid)) throw permissionDenied(`${verb} built-in roles`);
}

function refuseBound(ctx: KindContext, uid: string): void {
  const bindings = ctx.table.referringToRole(uid, MAX_LISTED_VIOLATIONS + 1);
  if (bindings.length === 0) return;
  const shown = bindings.slice(0, MAX_LISTED_VIOLATIONS);
  throw failedPrecondition(
    `role ${JSON.stringify(uid)} is still bound${bindings.length > shown.length ? " (more bindings than listed)" : ""}; delete its role bindings first`,
    shown.map((b) => ({
      type: "RESOURCE_IN_USE",
      subject: b.uid,
      description: `role is used by role binding ${b.uid} in group ${b.parentUid}`,
    })),
  );
}

const escalate = (caller: Caller, caps: Capability[], groupUid: string, name: unknown) =>
  refuseEscalation(caller, caps, groupUid, `define role ${JSON.stringify(name)} in this group`);

/**
 * Custom roles: capabilities sorted and de-duplicated, never more than the caller holds in the
 * role's group, no built-in name taken; built-in roles are read-only; a bound role is not deleted.
 *
 * @example
 * KIND_RULES.roles.hooks === ROLE_HOOKS; // true
 */
export const ROLE_HOOKS: KindHooks = {
  beforeCreate(_ctx, w) {
    refuseBuiltInName(w.fields.name);
    const capabilities = sorted(w.fields.capabilities);
    escalate(w.caller, capabilities, w.parentUid, w.fields.name);
    return { ...w.fields, parentUid: w.parentUid, capabilities };
  },
  beforeUpdate(ctx, u) {
    refuseBuiltIn(ctx, u.row.uid, "update");
    if (u.next.name !== u.current.name) refuseBuiltInName(u.next.name);
    u.next.capabilities = sorted(u.next.capabilities);
    if (u.paths.includes("capabilities")) {
      escalate(u.caller, u.next.capabilities as Capability[], u.row.parentUid, u.next.name);
    }
  },
  beforeDelete(ctx, _caller, row) {
    refuseBuiltIn(ctx, row.uid, "delete");
    refuseBound(ctx, row.uid);
  },
};

/**
 * Checks that `roleUid` names a role that can be granted in `groupUid` (built-in, or custom and
 * defined in that group or above) and that the caller holds all of it there; code 3 naming `field`
 * otherwise, code 7 for an escalation.
 *
 * @example
 * checkGrantableRole(ctx, caller, groupUid, body.role, "role", "invite with this role");
 */
export function checkGrantableRole(
  ctx: KindContext,
  caller: Caller,
  groupUid: string,
  roleUid: string,
  field: string,
  what: string,
): void {
  const role = ctx.table.get("roles", roleUid);
  const capabilities = ctx.roleCapabilities(roleUid);
  if (role === undefined || capabilities === undefined) {
    throw invalidArgument([{ field, description: `no role has the uid ${JSON.stringify(roleUid)}` }]);
  }
  if (!ctx.isBuiltInRole(roleUid) && !isSelfOrDescendant(groupUid, role.parentUid)) {
    throw invalidArgument([
      {
        field,
        description: `role ${JSON.stringify(role.name)} is defined in group ${role.parentUid} and can be granted only there and below`,
      },
    ]);
  }
  refuseEscalation(caller, capabilities, groupUid, `${what} (role ${JSON.stringify(role.name)})`);
}
