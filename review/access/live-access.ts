import type { IrvClient } from "../../sdk/index.js";
import { PREVIEW_UNKNOWN, parentUidOf } from "./org-model.js";
import type { StackResource } from "./stack-resources.js";
import { irvClassOf } from "./stack-resources.js";

/**
 * The bindings the API holds in the subtrees a stack touches, and the organization's external group
 * role mappings, as stack resources marked `external` (the review shows them as access from outside
 * the stack), and the number of list requests it took.
 *
 * @example
 * const { resources, requests } = await liveBindings(client, touchedGroups([...before, ...after]), stackUids);
 */
export interface LiveAccess {
  resources: StackResource[];
  requests: number;
  /** The subtrees listed with `descendantsOf` (the stack's topmost groups). */
  subtrees: string[];
  /** The groups listed with `childrenOf` (one level: the bindings at each). */
  groups: string[];
}

const PAGE = 200;

const known = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" && v !== PREVIEW_UNKNOWN ? v : undefined;

/**
 * Where a stack's access can come from outside it: `subtrees`, the topmost groups the stack manages
 * (listed whole: who else holds access inside them), and `groups`, every other group whose bindings
 * grant there — the groups of its bindings outside those subtrees, the parents of its groups, and
 * every group above (listed one level: the bindings at that group).
 *
 * @example
 * touchedGroups([...before, ...after]); // { subtrees: ["<org>/<platform>"], groups: ["<org>"] }
 */
export function touchedGroups(resources: readonly StackResource[]): { subtrees: string[]; groups: string[] } {
  const managed = new Set<string>();
  const points = new Set<string>();
  for (const r of resources) {
    const cls = irvClassOf(r.type);
    if (cls === "Group") {
      const uid = known(r.props.uid) ?? known(r.id);
      if (uid !== undefined) managed.add(uid);
      const parent = uid === undefined ? known(r.props.parentUid) : parentUidOf(uid);
      if (parent) points.add(parent);
    } else if (cls === "RoleBinding" || cls === "PullToken") {
      const g = known(r.props.groupUid);
      if (g !== undefined) points.add(g);
    }
  }
  const inside = (u: string, of: Iterable<string>) => [...of].some((o) => u === o || u.startsWith(`${o}/`));
  const subtrees = [...managed]
    .filter(
      (u) =>
        !inside(
          u,
          [...managed].filter((o) => o !== u),
        ),
    )
    .sort();
  const groups = new Set<string>();
  for (const start of [...subtrees, ...points])
    for (let p: string | null = start; p !== null; p = parentUidOf(p))
      if (!inside(p, subtrees)) groups.add(p);
  return { subtrees, groups: [...groups].sort() };
}

/**
 * Reads, with the stack's own credentials, every role binding in the subtrees the stack touches
 * (`descendantsOf` each topmost group, which includes the bindings at the group itself) and at each
 * other group where bindings grant into them (`childrenOf`; default: every group above the
 * subtrees), page by page, counting requests. Bindings the stack manages (`stackUids`) are left out: the stack's state says them.
 *
 * @example
 * const live = await liveBindings(client, { subtrees: ["<org>/<platform>"] }, new Set(stackBindingUids));
 */
export async function liveBindings(
  client: IrvClient,
  where: { subtrees: readonly string[]; groups?: readonly string[] },
  stackUids: ReadonlySet<string> = new Set(),
  pageSize = PAGE,
): Promise<LiveAccess> {
  const subtrees = where.subtrees;
  let requests = 0;
  const seen = new Map<string, StackResource>();
  // Every page of one list; each object not the stack's becomes an outside resource.
  const readAll = async <T extends { uid: string }>(
    list: (pageToken: string | undefined) => Promise<{ items: T[]; nextPageToken?: string | undefined }>,
    type: string,
    props: (item: T) => Record<string, unknown>,
  ) => {
    let pageToken: string | undefined;
    do {
      const page = await list(pageToken);
      requests++;
      for (const item of page.items) {
        if (stackUids.has(item.uid) || seen.has(item.uid)) continue;
        seen.set(item.uid, {
          urn: `live::${item.uid}`,
          type,
          id: item.uid,
          external: true,
          props: props(item),
        });
      }
      pageToken = page.nextPageToken || undefined;
    } while (pageToken !== undefined);
  };
  const read = (query: { descendantsOf?: string; childrenOf?: string }) =>
    readAll(
      (pageToken) => client.roleBindings.list({ ...query, pageSize, pageToken }),
      "irv:iam:RoleBinding",
      (b) => ({
        uid: b.uid,
        groupUid: b.group.uid,
        identityUid: b.identity.uid,
        roleUid: b.role.uid,
        identity: b.identity,
        group: b.group,
        role: b.role,
      }),
    );
  for (const s of subtrees) await read({ descendantsOf: s });
  const above = new Set(where.groups ?? []);
  // Without a list of groups: every group above the subtrees.
  if (where.groups === undefined)
    for (const s of subtrees) for (let p = parentUidOf(s); p !== null; p = parentUidOf(p)) above.add(p);
  for (const g of [...above].filter((a) => !subtrees.includes(a)).sort()) await read({ childrenOf: g });
  // External group role mappings are grants at the organization's root (their scope), made under
  // identity providers anywhere in it: every one of the organization reaches the stack's subtrees.
  const root = [...subtrees, ...above][0]?.split("/")[0];
  if (root !== undefined)
    await readAll(
      (pageToken) => client.externalGroupRoleMappings.list({ descendantsOf: root, pageSize, pageToken }),
      "irv:iam:ExternalGroupRoleMapping",
      (m) => ({ ...m }),
    );
  return { resources: [...seen.values()], requests, subtrees: [...subtrees], groups: [...above].sort() };
}

/**
 * The live access of a stack's resources (its state and planned state together): the bindings the
 * API holds where the stack's groups and bindings are ({@link touchedGroups}), without the stack's
 * own (its role bindings and its pull tokens' bindings). What `pulumi-irv access-review --live` and
 * the `access-broadening` policy's `live` read.
 *
 * @example
 * const live = await liveAccessOf(client, [...before, ...after]);
 * const after = orgModelOf([...planned, ...live.resources], { roles });
 */
export async function liveAccessOf(
  client: IrvClient,
  resources: readonly StackResource[],
): Promise<LiveAccess> {
  const stackUids = new Set(
    resources.flatMap((r) => {
      const cls = irvClassOf(r.type);
      const uids =
        cls === "RoleBinding" || cls === "ExternalGroupRoleMapping"
          ? [r.props.uid, r.id]
          : cls === "PullToken"
            ? [r.props.bindingUid]
            : [];
      return uids.filter((u): u is string => typeof u === "string");
    }),
  );
  return liveBindings(client, touchedGroups(resources), stackUids);
}
