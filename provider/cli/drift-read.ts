import type { KnownRole } from "../../review/index.js";
import { irvClassOf, parentUidOf } from "../../review/index.js";
import type { IrvClient, ListQuery, Page } from "../../sdk/index.js";
import { fetchAllParallel, MAX_PAGE_SIZE } from "../../sdk/index.js";
import { PULL_TOKEN_ISSUER } from "../runtime/index.js";
import type { LiveObject } from "./drift-compare.js";
import type { StateResource } from "./stack-state.js";

/**
 * What {@link readLiveOrg} found: every object of the listed scopes, the roles, the topmost groups
 * the stack manages, and how many requests it took.
 *
 * @example
 * const { objects, requests } = await readLiveOrg(client, deployment.resources ?? []);
 */
export interface LiveOrg {
  objects: LiveObject[];
  roles: KnownRole[];
  subtrees: string[];
  requests: number;
}

// The collection each class is listed from. A pull token is an identity (with a static key of the
// pull-token issuer) and its one binding: both collections are read for it.
const COLLECTIONS = {
  Group: ["groups"],
  Identity: ["identities"],
  PullToken: ["identities", "roleBindings"],
  RoleBinding: ["roleBindings", "identities"],
  IdentityProvider: ["identityProviders"],
  GroupInvite: ["groupInvites"],
  AccountAssociations: ["accountAssociations"],
  ExternalGroupRoleMapping: ["externalGroupRoleMappings"],
  Subscription: ["subscriptions"],
  Repo: ["repos"],
  Tag: ["tags"],
  Overlay: ["overlays"],
  OverlayBinding: ["overlayBindings"],
} as const satisfies Record<string, readonly ListedCollection[]>;
type ListedCollection =
  | "groups"
  | "identities"
  | "roleBindings"
  | "identityProviders"
  | "groupInvites"
  | "accountAssociations"
  | "externalGroupRoleMappings"
  | "subscriptions"
  | "repos"
  | "tags"
  | "overlays"
  | "overlayBindings";
const LISTED: readonly ListedCollection[] = [
  "groups",
  "identities",
  "roleBindings",
  "identityProviders",
  "groupInvites",
  "accountAssociations",
  "externalGroupRoleMappings",
  "subscriptions",
  "repos",
  "tags",
  "overlays",
  "overlayBindings",
];
const PAGES = { concurrency: 4 };

type Query = { descendantsOf: string } | { childrenOf: string };
type Server = { uid: string } & Record<string, unknown>;

const uidOf = (r: StateResource): string | undefined => {
  const uid = r.outputs?.uid ?? r.id;
  return typeof uid === "string" && uid !== "" ? uid : undefined;
};
const inside = (uid: string, subtrees: readonly string[]) =>
  subtrees.some((s) => uid === s || uid.startsWith(`${s}/`));

/**
 * The name of the explicit `pulumi:providers:irv` resource a state resource is managed through
 * (another organization, or other credentials), or undefined for a default provider (the stack's
 * `irv:` settings) and the dynamic providers, which read those settings too.
 *
 * @example
 * explicitProviderOf(partners); // "secondOrg"
 */
export function explicitProviderOf(r: StateResource): string | undefined {
  const ref = (r as { provider?: unknown }).provider;
  if (typeof ref !== "string") return undefined;
  // `<urn>::<id>`, the urn ending in `::pulumi:providers:irv::<name>`.
  const parts = ref.split("::");
  const name = parts.at(-2);
  if (parts.at(-3) !== "pulumi:providers:irv" || name === undefined) return undefined;
  return /^default(_|$)/.test(name) ? undefined : name;
}

/**
 * The topmost groups a stack's state manages: below each, every object belongs to the stack or is
 * unmanaged.
 *
 * @example
 * managedSubtrees(deployment.resources ?? []); // ["<org>/<platform>"]
 */
export function managedSubtrees(state: readonly StateResource[]): string[] {
  const groups = state.filter((r) => irvClassOf(r.type) === "Group").flatMap((r) => uidOf(r) ?? []);
  return groups.filter((g) => !groups.some((o) => o !== g && g.startsWith(`${o}/`))).sort();
}

/**
 * The lists that cover every object of a stack's state, and every object below the groups it
 * manages: each collection `descendantsOf` each managed subtree (which holds the objects at the
 * subtree's group itself), and, for a managed object elsewhere, its collection `childrenOf` its
 * parent (a group; a mapping's identity provider; a topmost managed group: its parent's groups), and
 * for a managed identity provider elsewhere, its mappings. Roles have flat uids and are listed once
 * for the organization. What no list covers (an account association outside the subtrees: its uid
 * is its group's) is read by uid.
 *
 * @example
 * driftReads(state); // { lists: [["groups", { descendantsOf: team }], …], byUid: [] }
 */
export function driftReads(state: readonly StateResource[]): {
  subtrees: string[];
  lists: [ListedCollection, Query][];
  byUid: string[];
} {
  const subtrees = managedSubtrees(state);
  const lists = new Map<string, [ListedCollection, Query]>();
  const add = (c: ListedCollection, q: Query) => lists.set(`${c} ${JSON.stringify(q)}`, [c, q]);
  for (const s of subtrees) for (const c of LISTED) add(c, { descendantsOf: s });
  const byUid: string[] = [];
  for (const r of state) {
    const cls = irvClassOf(r.type) as keyof typeof COLLECTIONS | undefined;
    const uid = uidOf(r);
    if (cls === undefined || uid === undefined || !(cls in COLLECTIONS)) continue;
    if (cls === "AccountAssociations") {
      if (!inside(uid, subtrees)) byUid.push(uid);
      continue;
    }
    const group = parentUidOf(uid);
    if (group === null) continue;
    // A group is below a subtree, or is one (then its parent's children hold it).
    const covered = cls === "Group" ? subtrees.some((s) => uid.startsWith(`${s}/`)) : inside(group, subtrees);
    if (covered) continue;
    for (const c of COLLECTIONS[cls]) add(c, { childrenOf: group });
    // A managed identity provider's mappings are the stack's business wherever it is: a mapping
    // made by hand under it is unmanaged.
    if (cls === "IdentityProvider") add("externalGroupRoleMappings", { childrenOf: uid });
  }
  return { subtrees, lists: [...lists.values()], byUid: byUid.sort() };
}

/**
 * Reads the organization where a stack's state says it has objects: the lists of
 * {@link driftReads}, pages of 200 fetched concurrently, and every role. Reads only.
 *
 * @example
 * const live = await readLiveOrg(client, deployment.resources ?? []);
 * compareDrift({ state, live: live.objects, subtrees: live.subtrees, roles: live.roles });
 */
export async function readLiveOrg(client: IrvClient, state: readonly StateResource[]): Promise<LiveOrg> {
  const { subtrees, lists, byUid } = driftReads(state);
  let requests = 0;
  const counted =
    <T extends { uid: string }>(list: (q: ListQuery) => Promise<Page<T>>) =>
    (q: ListQuery) => {
      requests++;
      return list(q);
    };
  const found = new Map<ListedCollection, Map<string, Server>>(LISTED.map((c) => [c, new Map()]));
  const [roles] = await Promise.all([
    fetchAllParallel(
      counted((q) => client.roles.list(q)),
      { pageSize: MAX_PAGE_SIZE },
      PAGES,
    ),
    ...lists.map(async ([c, q]) => {
      const items = (await fetchAllParallel(
        counted((x) => client[c].list(x) as Promise<Page<Server>>),
        { ...q, pageSize: MAX_PAGE_SIZE },
        PAGES,
      )) as Server[];
      for (const item of items) found.get(c)?.set(item.uid, item);
    }),
    ...byUid.map(async (uid) => {
      requests++;
      const a = await client.accountAssociations.find(uid);
      if (a !== undefined) found.get("accountAssociations")?.set(a.uid, a as Server);
    }),
  ]);
  return {
    // Built-in roles too: no stack manages one, so they only name what a binding grants.
    objects: [
      ...liveObjects(found),
      ...roles.map((r) => ({ className: "Role", uid: r.uid, server: r as unknown as Server })),
    ],
    roles: roles.map((r) => ({ uid: r.uid, name: r.name, capabilities: r.capabilities })),
    subtrees,
    requests,
  };
}

// The listed objects as the classes that manage them: an identity of the pull-token issuer and its
// binding are one PullToken.
function liveObjects(found: ReadonlyMap<ListedCollection, ReadonlyMap<string, Server>>): LiveObject[] {
  const all = (c: ListedCollection) => [...(found.get(c)?.values() ?? [])];
  const tokens = new Set(
    all("identities")
      .filter((i) => (i.staticKeys as { issuer?: unknown } | undefined)?.issuer === PULL_TOKEN_ISSUER)
      .map((i) => i.uid),
  );
  const bindingOf = new Map<string, Server>();
  const objects: LiveObject[] = [];
  for (const b of all("roleBindings")) {
    const identity = (b.identity as { uid?: string } | undefined)?.uid ?? "";
    if (tokens.has(identity)) bindingOf.set(identity, b);
    else objects.push({ className: "RoleBinding", uid: b.uid, server: b });
  }
  for (const i of all("identities"))
    objects.push(
      tokens.has(i.uid)
        ? {
            className: "PullToken",
            uid: i.uid,
            server: { uid: i.uid, identity: i, binding: bindingOf.get(i.uid) },
          }
        : { className: "Identity", uid: i.uid, server: i },
    );
  const classes: [ListedCollection, string][] = [
    ["groups", "Group"],
    ["identityProviders", "IdentityProvider"],
    ["groupInvites", "GroupInvite"],
    ["accountAssociations", "AccountAssociations"],
    ["externalGroupRoleMappings", "ExternalGroupRoleMapping"],
    ["subscriptions", "Subscription"],
    ["repos", "Repo"],
    ["tags", "Tag"],
    ["overlays", "Overlay"],
    ["overlayBindings", "OverlayBinding"],
  ];
  for (const [c, className] of classes)
    for (const o of all(c)) objects.push({ className, uid: o.uid, server: o });
  return objects;
}
