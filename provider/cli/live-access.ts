import type { IrvClient, StackResource } from "../../sdk/index.js";
import { irvClassOf, PREVIEW_UNKNOWN, parentUidOf } from "../../sdk/index.js";

/**
 * The bindings the API holds in the subtrees a stack touches, as stack resources marked
 * `external` (the review shows them as access from outside the stack), and the number of list
 * requests it took.
 *
 * @example
 * const { resources, requests } = await liveBindings(client, subtreesOf(before, after), stackUids);
 */
export interface LiveAccess {
  resources: StackResource[];
  requests: number;
  /** The subtrees listed with `descendantsOf` (the stack's topmost groups). */
  subtrees: string[];
}

const PAGE = 200;

const known = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" && v !== PREVIEW_UNKNOWN ? v : undefined;

/**
 * The group uids a stack touches: its groups (and their parents) and its bindings' groups, reduced
 * to the topmost ones (a subtree inside another is listed with it).
 *
 * @example
 * subtreesOf([...before, ...after]); // ["<org>/<platform>"]
 */
export function subtreesOf(resources: readonly StackResource[]): string[] {
  const uids = new Set<string>();
  for (const r of resources) {
    const cls = irvClassOf(r.type);
    if (cls === "Group") {
      const uid = known(r.props.uid) ?? known(r.id);
      const parent = uid === undefined ? known(r.props.parentUid) : (parentUidOf(uid) ?? uid);
      if (parent !== undefined) uids.add(parent);
    } else if (cls === "RoleBinding" || cls === "Identity") {
      const g = known(r.props.groupUid);
      if (g !== undefined) uids.add(g);
    }
  }
  const inside = (u: string, of: string) => u.startsWith(`${of}/`);
  return [...uids].filter((u) => ![...uids].some((o) => o !== u && inside(u, o))).sort();
}

/**
 * Reads, with the stack's own credentials, every role binding in the subtrees the stack touches
 * (`descendantsOf` each topmost group, which includes the bindings at the group itself) and at each
 * group above them (`childrenOf`: bindings there grant in the subtree too), page by page, counting
 * requests. Bindings the stack manages (`stackUids`) are left out: the stack's state says them.
 *
 * @example
 * const live = await liveBindings(client, ["<org>/<platform>"], new Set(stackBindingUids));
 */
export async function liveBindings(
  client: IrvClient,
  subtrees: readonly string[],
  stackUids: ReadonlySet<string> = new Set(),
  pageSize = PAGE,
): Promise<LiveAccess> {
  let requests = 0;
  const seen = new Map<string, StackResource>();
  const read = async (query: { descendantsOf?: string; childrenOf?: string }) => {
    let pageToken: string | undefined;
    do {
      const page = await client.roleBindings.list({ ...query, pageSize, pageToken });
      requests++;
      for (const b of page.items) {
        if (stackUids.has(b.uid) || seen.has(b.uid)) continue;
        seen.set(b.uid, {
          urn: `live::${b.uid}`,
          type: "irv:iam:RoleBinding",
          id: b.uid,
          external: true,
          props: {
            uid: b.uid,
            groupUid: b.group.uid,
            identityUid: b.identity.uid,
            roleUid: b.role.uid,
            identity: b.identity,
            group: b.group,
            role: b.role,
          },
        });
      }
      pageToken = page.nextPageToken || undefined;
    } while (pageToken !== undefined);
  };
  const above = new Set<string>();
  for (const s of subtrees) {
    await read({ descendantsOf: s });
    for (let p = parentUidOf(s); p !== null; p = parentUidOf(p)) above.add(p);
  }
  for (const g of [...above].filter((a) => !subtrees.includes(a)).sort()) await read({ childrenOf: g });
  return { resources: [...seen.values()], requests, subtrees: [...subtrees] };
}
