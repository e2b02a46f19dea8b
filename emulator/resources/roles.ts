import type { Capability } from "pulumi-irv/sdk";
import { Code, fromWireCapability, isWireCapability, toWireCapability } from "pulumi-irv/sdk";
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

/**
 * A role's capabilities as protojson reads them: enum value names or numbers; a name the enum lacks
 * (a display name such as `groups.list` among them) is dropped, as grpc-gateway's `DiscardUnknown`
 * does. Stored as enum names, sorted, once each. None left is refused: the published `Role` requires
 * at least one (`iam/v2beta1/roles.proto:164`).
 */
function wireCapabilities(caps: unknown): string[] {
  const known = (Array.isArray(caps) ? caps : []).filter(isWireCapability);
  const names = [...new Set(known.map((c) => toWireCapability(fromWireCapability(c))))].sort();
  if (names.length === 0) {
    throw invalidArgument([
      {
        field: "capabilities",
        description:
          "at least one capability is required, written as the enum value name (CAP_IAM_GROUPS_LIST, …); unknown values are dropped",
      },
    ]);
  }
  return names;
}

const displayNames = (wire: readonly string[]): Capability[] =>
  wire.map((c) => fromWireCapability(c) as Capability);

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
    `role ${JSON.stringify(uid)} is still bound${bindings.length > shown.length ? " (more bindings than listed)" : ""}; delete its role bindings and external group role mappings first`,
    shown.map((b) => ({
      type: "RESOURCE_IN_USE",
      subject: b.uid,
      description:
        b.kind === "externalGroupRoleMappings"
          ? `role is mapped by external group role mapping ${b.uid} of identity provider ${b.parentUid}`
          : `role is used by role binding ${b.uid} in group ${b.parentUid}`,
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
    const capabilities = wireCapabilities(w.fields.capabilities);
    escalate(w.caller, displayNames(capabilities), w.parentUid, w.fields.name);
    // The published Role has no parent field: the row keeps the group, the answer does not show it.
    return { ...w.fields, capabilities };
  },
  beforeUpdate(ctx, u) {
    refuseBuiltIn(ctx, u.row.uid, "update");
    if (u.next.name !== u.current.name) refuseBuiltInName(u.next.name);
    const capabilities = wireCapabilities(u.next.capabilities);
    u.next.capabilities = capabilities;
    if (u.paths.includes("capabilities")) {
      escalate(u.caller, displayNames(capabilities), u.row.parentUid, u.next.name);
    }
  },
  beforeDelete(ctx, _caller, uid) {
    refuseBuiltIn(ctx, uid, "delete");
    refuseBound(ctx, uid);
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
