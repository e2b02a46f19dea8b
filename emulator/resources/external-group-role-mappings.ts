import { Code } from "pulumi-irv/sdk";
import { ApiFault, ancestorUid, invalidArgument } from "../core/index.js";
import type { KindHooks } from "./kind-context.js";
import { checkGrantableRole } from "./roles.js";

type Stored = { uid: string; externalGroupId: string; roleUid: string; scope: string };

/**
 * External group role mappings (published iam/v2beta1/external_group_role_mappings.proto): under an
 * identity provider (the uid is a child of its uid); everyone in the external group holds the role
 * at `scope`, which must be the organization's root (the only scope the service accepts). A
 * mapping grants, so its role must be grantable there and the caller must hold all of it there (no
 * privilege escalation), as for a role binding. One mapping per identity provider, external group,
 * role and scope (ALREADY_EXISTS). Immutable; answered with `createTime` only. The row refers to its
 * role, which therefore cannot be deleted while mapped.
 *
 * @example
 * MAPPING_HOOKS.refs?.({ roleUid }); // { identity: null, role: roleUid }
 */
export const MAPPING_HOOKS: KindHooks = {
  beforeCreate(ctx, w) {
    const org = w.parentUid.slice(0, 40);
    const f = w.fields as Omit<Stored, "uid">;
    if (f.scope !== org) {
      throw invalidArgument([
        {
          field: "scope",
          description: `must be the organization's root ${org}: a mapping applies at the root only`,
        },
      ]);
    }
    checkGrantableRole(ctx, w.caller, f.scope, f.roleUid, "roleUid", "map an external group to a role");
    const clash = ctx.table
      .children(w.parentUid, -1)
      .map((r) => JSON.parse(r.data) as Stored)
      .find((m) => m.externalGroupId === f.externalGroupId && m.roleUid === f.roleUid && m.scope === f.scope);
    if (clash !== undefined) {
      throw new ApiFault(
        Code.ALREADY_EXISTS,
        `identity provider ${JSON.stringify(w.parentUid)} already maps external group ${JSON.stringify(f.externalGroupId)} to role ${f.roleUid} at ${f.scope} (uid ${clash.uid})`,
      );
    }
    return { identityProviderUid: w.parentUid, ...f };
  },
  stored: (uid, parentUid, f, now) => ({
    uid,
    identityProviderUid: parentUid,
    externalGroupId: f.externalGroupId,
    roleUid: f.roleUid,
    scope: f.scope,
    createTime: now,
  }),
  refs: (data) => ({ identity: null, role: String(data.roleUid) }),
  describe: (_ctx, row) => {
    const m = JSON.parse(row.data) as Stored;
    return `external group role mapping of ${JSON.stringify(m.externalGroupId)} (identity provider ${ancestorUid(m.uid, 1)})`;
  },
};
