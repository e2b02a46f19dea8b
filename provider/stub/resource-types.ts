/**
 * Every resource type pulumi-irv serves, written once: the `<type>` of
 * `pulumi-nodejs:dynamic/irv:<type>`, the provider stubs, the runtime's kind table and the preload
 * all follow this list (the policy pack repeats it, and a unit test keeps the two equal).
 *
 * @example
 * RESOURCE_TYPES.includes("Role"); // true
 */
export const RESOURCE_TYPES = [
  "Group",
  "Identity",
  "RoleBinding",
  "Role",
  "IdentityProvider",
  "GroupInvite",
  "AccountAssociations",
  "PullToken",
  "ExternalGroupRoleMapping",
  "Repo",
  "Tag",
  "Overlay",
  "OverlayBinding",
  "Subscription",
] as const;

/**
 * One resource type pulumi-irv serves.
 *
 * @example
 * const type: ResourceType = "GroupInvite";
 */
export type ResourceType = (typeof RESOURCE_TYPES)[number];
