/**
 * What the built-in `owner` role grants: every capability of the API. Repeated here because a
 * policy pack depends on nothing of ours (a unit test checks it equals the sdk's list). Should the
 * API gain a capability before this list does, a role granting all of these is still flagged.
 *
 * @example
 * const ownerEquivalent = OWNER_CAPABILITIES.every((c) => capabilities.includes(c));
 */
export const OWNER_CAPABILITIES: readonly string[] = [
  ...["groups", "identity", "role_bindings", "roles", "identity_providers"].flatMap(crud),
  ...["account_associations", "group_invites"].flatMap(crud),
  "repo.list",
  "tag.list",
  "advisories.list",
];

function crud(family: string): string[] {
  return ["list", "create", "update", "delete"].map((verb) => `${family}.${verb}`);
}
