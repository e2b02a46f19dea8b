/**
 * The type tokens of pulumi-irv's dynamic resources (`dynamic.Resource` with module `irv`).
 * Policies match on these: a class-based `validateResourceOfType` never matches a dynamic resource.
 * The pack depends on nothing of ours, so this repeats the provider's `RESOURCE_TYPES`; a unit
 * test keeps the two equal.
 *
 * @example
 * if (args.type === TYPE.Group) check(args.props.name);
 */
export const TYPE = {
  Group: "pulumi-nodejs:dynamic/irv:Group",
  Identity: "pulumi-nodejs:dynamic/irv:Identity",
  RoleBinding: "pulumi-nodejs:dynamic/irv:RoleBinding",
  Role: "pulumi-nodejs:dynamic/irv:Role",
  IdentityProvider: "pulumi-nodejs:dynamic/irv:IdentityProvider",
  GroupInvite: "pulumi-nodejs:dynamic/irv:GroupInvite",
  AccountAssociations: "pulumi-nodejs:dynamic/irv:AccountAssociations",
} as const;

/**
 * The group name rule of the API, repeated here because a policy pack depends on nothing of ours
 * (a unit test checks it equals the sdk's).
 *
 * @example
 * API_GROUP_NAME.test("team-a"); // true
 */
export const API_GROUP_NAME = /^[a-z0-9 ._-]{1,}$/;
