import * as pulumi from "@pulumi/pulumi";
import { lookup, toQuery } from "../data-sources/index.js";
import type { ListFilter, ListFilterInput, Role } from "../types/index.js";

/**
 * Result of {@link getRoles}.
 *
 * @example
 * const { roles }: irv.iam.GetRolesResult = await irv.iam.getRoles({ orderBy: "name" });
 */
export interface GetRolesResult {
  roles: Role[];
}

/**
 * Every role matching the filter (all pages).
 *
 * @example
 * const { roles } = await irv.iam.getRoles({ orderBy: "name" });
 */
export async function getRoles(filter: ListFilter = {}): Promise<GetRolesResult> {
  return {
    roles: await lookup("irv.iam.getRoles", (client) => client.roles.collectParallel(toQuery(filter))),
  };
}

/**
 * {@link getRoles} taking Inputs and returning an Output.
 *
 * @example
 * export const roleNames = irv.iam.getRolesOutput({}).roles.apply((r) => r.map((x) => x.name));
 */
export function getRolesOutput(filter: ListFilterInput = {}): pulumi.Output<GetRolesResult> {
  return pulumi.output(filter).apply((f) => getRoles(f as ListFilter));
}

/**
 * Arguments of {@link getRole}.
 *
 * @example
 * const args: irv.iam.GetRoleArgs = { name: "auditor", parentUid: platformUid };
 * const auditor = await irv.iam.getRole(args);
 */
export interface GetRoleArgs {
  /** Role name, e.g. the built-in `viewer`, `editor`, `owner`. */
  name: string;
  /** Only roles directly under this group (for APIs that scope custom roles). */
  parentUid?: string | undefined;
}

/**
 * Exactly one role by name; fails clearly when there is none or several.
 *
 * @example
 * const viewer = await irv.iam.getRole({ name: "viewer" });
 */
export async function getRole(args: GetRoleArgs): Promise<Role> {
  if (!args?.name) throw new pulumi.RunError('getRole: name is required (e.g. { name: "viewer" })');
  const filter: ListFilter = { name: args.name, childrenOf: args.parentUid };
  const { roles } = await getRoles(filter);
  const [first, ...rest] = roles;
  if (!first)
    throw new pulumi.RunError(
      `getRole: no role named ${JSON.stringify(args.name)}${args.parentUid ? ` under ${args.parentUid}` : ""}; the built-in roles are owner, editor and viewer`,
    );
  if (rest.length > 0)
    throw new pulumi.RunError(
      `getRole: ${roles.length} roles are named ${JSON.stringify(args.name)} (${roles.map((r) => r.uid).join(", ")}); pass parentUid to choose one`,
    );
  return first;
}

/**
 * {@link getRole} taking Inputs and returning an Output.
 *
 * @example
 * const viewer = irv.iam.getRoleOutput({ name: "viewer" });
 * new irv.iam.RoleBinding("b", { groupUid, identityUid, roleUid: viewer.uid });
 */
export function getRoleOutput(args: {
  name: pulumi.Input<string>;
  parentUid?: pulumi.Input<string | undefined>;
}): pulumi.Output<Role> {
  return pulumi.output(args).apply((a) => getRole(a as GetRoleArgs));
}
