import type { Identity, RoleBindingCreate } from "pulumi-irv/sdk";
import { Code } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { ApiFault, ancestorUid, invalidArgument } from "../core/index.js";
import type { ResourceTable } from "../store/index.js";
import { identityIssuerSubject } from "./identities.js";
import type { KindContext, KindHooks } from "./kind-context.js";
import { checkGrantableRole } from "./roles.js";

/**
 * A role binding as stored: references, not copies, so renames show through at once.
 *
 * @example
 * const binding = JSON.parse(row.data) as StoredBinding;
 * table.get("roles", binding.roleUid);
 */
export interface StoredBinding {
  uid: string;
  identityUid: string;
  roleUid: string;
  groupUid: string;
  createTime: string;
}

interface Named {
  uid: string;
  name: string;
  description?: string;
}

// An unset description is "", as grpc-gateway writes every field (EmitUnpopulated).
const pick = (x: Named) => ({ uid: x.uid, name: x.name, description: x.description ?? "" });

/**
 * The wire form of a role binding: identity, group and role hydrated from their current rows
 * (spec §2: no follow-up lookups needed), and only `createTime`. The identity's issuer and subject
 * are shown only to callers who may read that identity. `identityUid` and `roleUid` follow, as in the
 * published message.
 *
 * @example
 * const json = hydrateBinding(table, row.data, caller); // '{"uid":…,"identity":{…},"group":{…},"role":{…},"createTime":…}'
 */
export function hydrateBinding(table: ResourceTable, data: string, caller: Caller): string {
  const b = JSON.parse(data) as StoredBinding;
  const load = (kind: string, uid: string): Named & Partial<Identity> => {
    const data = table.data(kind, uid);
    // Deletes keep references intact (identity deletes cascade, group and role deletes refuse), so a
    // missing row is only possible in a hand-edited database: show the uid rather than fail.
    return data !== undefined ? (JSON.parse(data) as Named & Partial<Identity>) : { uid, name: "" };
  };
  const identity = load("identities", b.identityUid);
  const identityGroup = ancestorUid(b.identityUid, 1) ?? b.identityUid;
  const who = caller.has("identity.list", identityGroup) ? identityIssuerSubject(identity) : {};
  return JSON.stringify({
    uid: b.uid,
    identity: { ...pick(identity), ...who },
    group: pick(load("groups", b.groupUid)),
    role: pick(load("roles", b.roleUid)),
    createTime: b.createTime,
    // The published binding also carries the references' uids (iam/role_bindings.proto:198, :202).
    identityUid: b.identityUid,
    roleUid: b.roleUid,
  });
}

// A binding's identity must live in the binding's group or one of its ancestors (a binding grants
// rights below where the identity is defined, never beside it); the role must be grantable there.
function checkBinding(
  ctx: KindContext,
  caller: Caller,
  groupUid: string,
  b: RoleBindingCreate,
  self: string | undefined,
): void {
  const above = (uid: string | undefined) =>
    uid !== undefined && (groupUid === uid || groupUid.startsWith(`${uid}/`));
  if (!above(ancestorUid(b.identityUid, 1))) {
    throw invalidArgument([
      {
        field: "identityUid",
        description: "must be an identity of the binding's group or of one of its ancestors",
      },
    ]);
  }
  if (!ctx.table.has("identities", b.identityUid)) {
    throw invalidArgument([
      { field: "identityUid", description: `no identity has the uid ${JSON.stringify(b.identityUid)}` },
    ]);
  }
  checkGrantableRole(ctx, caller, groupUid, b.roleUid, "roleUid", "bind a role here");
  const clash = ctx.table
    .referringToIdentity(b.identityUid)
    .find((x) => x.parentUid === groupUid && x.refRole === b.roleUid && x.uid !== self);
  if (clash !== undefined) {
    throw new ApiFault(
      Code.ALREADY_EXISTS,
      `identity ${JSON.stringify(b.identityUid)} already has role ${JSON.stringify(b.roleUid)} in group ${JSON.stringify(groupUid)} (binding ${clash.uid})`,
    );
  }
}

/**
 * Role bindings: references checked, no escalation, stored as references, hydrated on the way out.
 *
 * @example
 * KIND_RULES.roleBindings.hooks === ROLE_BINDING_HOOKS; // true
 */
export const ROLE_BINDING_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    checkBinding(ctx, w.caller, w.parentUid, w.fields as RoleBindingCreate, undefined);
    return w.fields;
  },
  // Both references may change (published UpdateRoleBindingRequest: "set identity_uid and/or
  // role_uid"): the new pair is checked as a create would check it, so moving a binding to another
  // identity needs the same right as binding the role to that identity.
  beforeUpdate(ctx, u) {
    const next = u.next as unknown as StoredBinding;
    if (next.roleUid !== u.row.refRole || next.identityUid !== u.row.refIdentity)
      checkBinding(ctx, u.caller, next.groupUid, next, u.row.uid);
  },
  stored: (uid, parentUid, fields, now) => {
    const { identityUid, roleUid } = fields as RoleBindingCreate;
    return { uid, identityUid, roleUid, groupUid: parentUid, createTime: now } satisfies StoredBinding;
  },
  refs: (data) => ({ identity: String(data.identityUid), role: String(data.roleUid) }),
  describe: (ctx, row) => {
    const roleName = ctx.table.get("roles", row.refRole ?? "")?.name ?? row.refRole;
    return `role binding of role ${JSON.stringify(roleName)} to identity ${row.refIdentity}`;
  },
  output: (ctx, caller, data) => hydrateBinding(ctx.table, data, caller),
};
