import type * as pulumi from "@pulumi/pulumi";
import type { IrvClient } from "../../sdk/index.js";
import { isBuiltInRole } from "../../sdk/index.js";
import { dataSource, exactlyOne, toQuery } from "../data-sources/index.js";
import type { InputsOf, ListFilter, Role } from "../types/index.js";

/**
 * Filter of {@link getRoles}: the list filter, and `parentUid` for the custom roles defined in one
 * group (the built-in roles belong to no group).
 *
 * @example
 * const args: irv.iam.GetRolesArgs = { parentUid: platformUid, orderBy: "name" };
 */
export interface GetRolesArgs extends ListFilter {
  /** Only the custom roles defined directly in this group. */
  parentUid?: string | undefined;
}

/**
 * Result of {@link getRoles}: each role with its capabilities.
 *
 * @example
 * const { roles }: irv.iam.GetRolesResult = await irv.iam.getRoles({ orderBy: "name" });
 */
export interface GetRolesResult {
  roles: Role[];
}

// A group's list of roles includes the built-in ones it can bind: `parentUid` keeps only its own,
// and says where they are defined (the API's Role carries no parent).
async function listRoles(
  client: IrvClient,
  parentUid: string | undefined,
  filter: ListFilter,
): Promise<Role[]> {
  const found = await client.roles.collectParallel(
    toQuery({ ...filter, childrenOf: parentUid ?? filter.childrenOf }),
  );
  return parentUid === undefined
    ? found
    : found.filter((r) => !isBuiltInRole(r)).map((r) => ({ ...r, parentUid }));
}

const roles = dataSource("irv.iam.getRoles", async (client, { parentUid, ...filter }: GetRolesArgs) => ({
  roles: await listRoles(client, parentUid, filter),
}));

/**
 * Every role matching the filter (all pages), capabilities included.
 *
 * @example
 * const { roles } = await irv.iam.getRoles({ parentUid: platformUid });
 * const writers = roles.filter((r) => r.capabilities.includes("groups.create"));
 */
export function getRoles(filter: GetRolesArgs = {}): Promise<GetRolesResult> {
  return roles.get(filter);
}

/**
 * {@link getRoles} taking Inputs and returning an Output.
 *
 * @example
 * export const roleNames = irv.iam.getRolesOutput({}).roles.apply((r) => r.map((x) => x.name));
 */
export function getRolesOutput(filter: InputsOf<GetRolesArgs> = {}): pulumi.Output<GetRolesResult> {
  return roles.output(filter);
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
  /** Only the custom roles defined directly in this group. */
  parentUid?: string | undefined;
}

const role = dataSource("irv.iam.getRole", async (client, args: GetRoleArgs) => {
  if (!args?.name) throw new Error('name is required (e.g. { name: "viewer" })');
  const found = await listRoles(client, args.parentUid, { name: args.name });
  const where = args.parentUid ? ` under ${args.parentUid}` : "";
  if (found.length === 0)
    throw new Error(
      `no role named ${JSON.stringify(args.name)}${where}; the built-in roles are owner, editor and viewer`,
    );
  return exactlyOne(`roles named ${JSON.stringify(args.name)}`, found, "pass parentUid to choose one");
});

/**
 * Exactly one role by name; fails clearly when there is none or several.
 *
 * @example
 * const viewer = await irv.iam.getRole({ name: "viewer" });
 */
export function getRole(args: GetRoleArgs): Promise<Role> {
  return role.get(args);
}

/**
 * {@link getRole} taking Inputs and returning an Output.
 *
 * @example
 * const viewer = irv.iam.getRoleOutput({ name: "viewer" });
 * new irv.iam.RoleBinding("b", { groupUid, identityUid, roleUid: viewer.uid });
 */
export function getRoleOutput(args: InputsOf<GetRoleArgs>): pulumi.Output<Role> {
  return role.output(args);
}
