import { GROUP_NAME_PATTERN } from "pulumi-irv/sdk";

/**
 * The type tokens of pulumi-irv's dynamic resources (`dynamic.Resource` with module `irv`).
 * Policies match on these: a class-based `validateResourceOfType` never matches a dynamic resource.
 * This repeats the provider's `RESOURCE_TYPES` (the pack reaches only `pulumi-irv/sdk`); a unit
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
  PullToken: "pulumi-nodejs:dynamic/irv:PullToken",
  ExternalGroupRoleMapping: "pulumi-nodejs:dynamic/irv:ExternalGroupRoleMapping",
  Repo: "pulumi-nodejs:dynamic/irv:Repo",
  Tag: "pulumi-nodejs:dynamic/irv:Tag",
  Overlay: "pulumi-nodejs:dynamic/irv:Overlay",
  OverlayBinding: "pulumi-nodejs:dynamic/irv:OverlayBinding",
  Subscription: "pulumi-nodejs:dynamic/irv:Subscription",
} as const;

/**
 * The type tokens of the same resources through the native plugin `pulumi-resource-irv` (programs
 * in YAML, Python, Go, …). Repeated from the provider like {@link TYPE}; a unit test keeps them equal.
 *
 * @example
 * NATIVE_TYPE.Group; // "irv:iam:Group"
 */
export const NATIVE_TYPE = {
  Group: "irv:iam:Group",
  Identity: "irv:iam:Identity",
  RoleBinding: "irv:iam:RoleBinding",
  Role: "irv:iam:Role",
  IdentityProvider: "irv:iam:IdentityProvider",
  GroupInvite: "irv:iam:GroupInvite",
  AccountAssociations: "irv:iam:AccountAssociations",
  PullToken: "irv:registry:PullToken",
  ExternalGroupRoleMapping: "irv:iam:ExternalGroupRoleMapping",
  Repo: "irv:registry:Repo",
  Tag: "irv:registry:Tag",
  Overlay: "irv:registry:Overlay",
  OverlayBinding: "irv:registry:OverlayBinding",
  Subscription: "irv:events:Subscription",
} as const satisfies Record<keyof typeof TYPE, string>;

/**
 * Whether a resource's type token is the given kind, through either front end (the dynamic
 * providers' `pulumi-nodejs:dynamic/irv:<Kind>` or the plugin's `irv:<module>:<Kind>`): every policy
 * matches both, so a stack moved to the plugin keeps its checks.
 *
 * @example
 * if (!isType(args.type, "Group")) return;
 */
export function isType(token: string, kind: keyof typeof TYPE): boolean {
  return token === TYPE[kind] || token === NATIVE_TYPE[kind];
}

/**
 * The group name rule of the API: the sdk's, so the pack refuses exactly what the service does.
 *
 * @example
 * API_GROUP_NAME.test("team-a"); // true
 */
export const API_GROUP_NAME = GROUP_NAME_PATTERN;
