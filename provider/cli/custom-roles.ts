import type { IrvClient, Role } from "../../sdk/index.js";
import { isBuiltInRole } from "../../sdk/index.js";

/**
 * A custom role with the group it is defined in. The published `Role` message carries no parent
 * (`iam/v2beta1/roles.proto:142-172`), so the group is the one whose `childrenOf` list holds it.
 *
 * @example
 * const r: PlacedRole = { ...role, parentUid: teamUid };
 */
export type PlacedRole = Role & { parentUid: string };

// Bounded: an organization of hundreds of groups is that many list calls.
const CONCURRENCY = 8;

/**
 * Every custom role defined in `rootUid` or a group below it, each with its group. Built-in roles
 * belong to no group and are not among them.
 *
 * @example
 * const roles = await listCustomRoles(client, orgUid);
 * roles.map((r) => `${r.name} in ${r.parentUid}`);
 */
export async function listCustomRoles(client: IrvClient, rootUid: string): Promise<PlacedRole[]> {
  const groups = [
    rootUid,
    ...(await client.groups.collectParallel({ descendantsOf: rootUid }, { concurrency: CONCURRENCY })).map(
      (g) => g.uid,
    ),
  ];
  const found: PlacedRole[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      const i = next++;
      const parentUid = groups[i] as string;
      found[i] = (await client.roles.collect({ childrenOf: parentUid })).map((r) => ({ ...r, parentUid }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, groups.length) }, worker));
  // Built-in roles are visible in every group's list; they are no group's custom roles.
  return found.flat().filter((r) => !isBuiltInRole(r));
}
