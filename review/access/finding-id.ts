import { createHash } from "node:crypto";

/**
 * The stable id of one finding: a hash of the identity, the group subtree and the capability (each
 * the stack resource's URN, or the uid of an object the stack does not manage), so an approval in
 * `access-approvals.yaml` keeps covering the same access across previews.
 *
 * @example
 * findingId(ciUrn, platformUrn, "role_bindings.create"); // "ar-5c1e0f9a2b7d4e36"
 */
export function findingId(identity: string, subtree: string, capability: string): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([identity, subtree, capability]))
    .digest("hex");
  return `ar-${digest.slice(0, 16)}`;
}

/**
 * The stable id of one review row: a hash of whether it is a gain or a loss, the identity, the
 * group subtree, the binding and its role (stack resources by URN, others by uid). `ag-` tells it
 * apart from the per-capability finding ids (`ar-`).
 *
 * @example
 * grantRowId(true, ciUrn, orgUid, bindingUrn, ownerUid); // "ag-1f0e…"
 */
export function grantRowId(
  gain: boolean,
  identity: string,
  subtree: string,
  binding: string,
  role: string,
): string {
  const digest = createHash("sha256")
    .update(JSON.stringify(["grant", gain ? "+" : "-", identity, subtree, binding, role]))
    .digest("hex");
  return `ag-${digest.slice(0, 16)}`;
}
