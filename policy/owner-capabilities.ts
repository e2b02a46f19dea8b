/**
 * What the built-in `owner` role grants: every capability of the families this package manages. Repeated here because a
 * policy pack depends on nothing of ours (a unit test checks it equals the sdk's list). Should the
 * API gain a capability before this list does, a role granting all of these is still flagged.
 *
 * @example
 * const ownerEquivalent = OWNER_CAPABILITIES.every((c) => capabilities.includes(c));
 */
export const OWNER_CAPABILITIES: readonly string[] = [
  ...["groups", "roles", "role_bindings", "account_associations", "identity", "identity_providers"].flatMap(
    crud,
  ),
  // Invites are never updated: there is no `group_invites.update`.
  "group_invites.create",
  "group_invites.list",
  "group_invites.delete",
  "identity_providers.scim.manage",
  ...["repo", "tag"].flatMap(crud),
  "advisories.list",
];

function crud(family: string): string[] {
  return ["list", "create", "update", "delete"].map((verb) => `${family}.${verb}`);
}
