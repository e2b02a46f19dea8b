import type { ResourceRow, ResourceTable } from "../store/index.js";

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
  claimMatch?: { issuer: string; subject: string };
}

const pick = (x: Named) => ({
  uid: x.uid,
  name: x.name,
  ...(x.description !== undefined ? { description: x.description } : {}),
});

/**
 * The wire form of a role binding: identity, group and role hydrated from their current rows
 * (spec §2: no follow-up lookups needed), and only `createTime`.
 *
 * @example
 * const json = hydrateBinding(table, row); // '{"uid":…,"identity":{…},"group":{…},"role":{…},"createTime":…}'
 */
export function hydrateBinding(table: ResourceTable, row: ResourceRow): string {
  const b = JSON.parse(row.data) as StoredBinding;
  const load = (kind: string, uid: string): Named => {
    const r = table.get(kind, uid);
    // Deletes keep references intact (identity deletes cascade, group and role deletes refuse), so a
    // missing row is only possible in a hand-edited database: show the uid rather than fail.
    return r ? (JSON.parse(r.data) as Named) : { uid, name: "" };
  };
  const identity = load("identities", b.identityUid);
  return JSON.stringify({
    uid: b.uid,
    identity: {
      ...pick(identity),
      subject: identity.claimMatch?.subject ?? "",
      issuer: identity.claimMatch?.issuer ?? "",
    },
    group: pick(load("groups", b.groupUid)),
    role: pick(load("roles", b.roleUid)),
    createTime: b.createTime,
  });
}
