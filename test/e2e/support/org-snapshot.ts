// The org tree a program left in the emulator, with every uid replaced by a path of names, so that
// two runs against two emulators (each with its own organization uid) compare equal when they made
// the same tree.

import { listCustomRoles } from "../../../provider/cli/custom-roles.js";
import type { IrvClient } from "../../../sdk/index.js";

/**
 * Groups, identities, custom roles and bindings below an organization, by name path.
 *
 * @example
 * expect(await orgSnapshot(python.admin, python.orgUid)).toEqual(await orgSnapshot(ts.admin, ts.orgUid));
 */
export interface OrgSnapshot {
  /** `platform/team-payments: The payments team` */
  groups: string[];
  /** `platform/team-payments/payments-ci: <description> {claim match as JSON}` */
  identities: string[];
  /** `platform/release-reader: <description> [capabilities]` */
  roles: string[];
  /** `platform/team-payments: payments-ci → viewer` */
  bindings: string[];
}

/**
 * Reads the tree below `orgUid` through the API and describes it without uids.
 *
 * @example
 * const snapshot = await orgSnapshot(irv.admin, irv.emulator.orgUid);
 */
export async function orgSnapshot(admin: IrvClient, orgUid: string): Promise<OrgSnapshot> {
  const [groups, identities, bindings, roles] = await Promise.all([
    admin.groups.collect({ descendantsOf: orgUid }),
    admin.identities.collect({ descendantsOf: orgUid }),
    admin.roleBindings.collect({ descendantsOf: orgUid }),
    // A custom role's uid is not under its group's: the group is found by listing each group's roles.
    listCustomRoles(admin, orgUid),
  ]);
  // A uid is its parent's uid plus a segment: the path of names follows the uid's prefixes.
  const names = new Map(groups.map((g) => [g.uid, g.name]));
  const pathOf = (uid: string): string => {
    const parts: string[] = [];
    for (let at = uid; at.length > orgUid.length; at = at.slice(0, at.lastIndexOf("/"))) {
      const name = names.get(at);
      if (name !== undefined) parts.unshift(name);
    }
    return parts.join("/");
  };
  const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
  return {
    groups: groups.map((g) => `${pathOf(g.uid)}: ${g.description ?? ""}`).sort(),
    identities: identities
      .map(
        (i) =>
          `${pathOf(parentOf(i.uid))}/${i.name}: ${i.description ?? ""} ${JSON.stringify(i.claimMatch ?? i.staticKeys ?? i.awsIdentity ?? i.servicePrincipal)}`,
      )
      .sort(),
    roles: roles
      .map(
        (r) =>
          `${pathOf(r.parentUid)}/${r.name}: ${r.description ?? ""} ${[...r.capabilities].sort().join(",")}`,
      )
      .sort(),
    bindings: bindings.map((b) => `${pathOf(b.group.uid)}: ${b.identity.name} → ${b.role.name}`).sort(),
  };
}
