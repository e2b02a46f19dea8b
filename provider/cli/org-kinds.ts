import type { Identity, IrvClient, RoleBinding } from "../../sdk/index.js";
import type { KindDefinition, Props } from "../runtime/index.js";
import {
  accountAssociationsKind,
  externalGroupRoleMappingKind,
  groupInviteKind,
  groupKind,
  identityKind,
  identityProviderKind,
  overlayBindingKind,
  overlayKind,
  PULL_TOKEN_ISSUER,
  pullTokenKind,
  repoKind,
  roleBindingKind,
  roleKind,
  subscriptionKind,
  tagKind,
} from "../runtime/index.js";
import type { PlacedRole } from "./custom-roles.js";
import { listCustomRoles } from "./custom-roles.js";

/**
 * A constructor argument of a generated resource: a literal (a list renders as an array), the
 * `uid` of another object (a variable when that object is generated too), a write-only field the
 * user must supply as a secret config value, or an object of further arguments.
 *
 * @example
 * const args: Record<string, Arg> = { parentUid: { ref: parentUid }, name: "team-a", capabilities: ["groups.list"] };
 */
export type Arg =
  | string
  | number
  | boolean
  | readonly Arg[]
  | { ref: string }
  | { secret: string }
  | { fields: Record<string, Arg> };

/**
 * One object of the organization, ready to render.
 *
 * @example
 * const o: OrgObject = { uid, className: "Group", baseName: "team-a", parentUid: root, args: { name: "team-a" } };
 */
export interface OrgObject {
  uid: string;
  /** The class in the kind table (`irv.<module>.<className>`: `Group`, `PullToken`, …). */
  className: string;
  /** Kebab-case name before it is made unique. */
  baseName: string;
  /** The group it lives in: its logical name qualifies a base name shared with another object. */
  parentUid: string;
  args: Record<string, Arg>;
  /** Why it is not generated: it is listed in the README with this reason instead. */
  unsupported?: string;
}

/**
 * How `import-org` reads and writes one resource kind: list every object under a root (all pages),
 * and turn each into a logical name and constructor arguments that equal what the provider's
 * `read` returns (so the import adopts it unchanged). A new kind is one entry.
 *
 * @example
 * const objects = await ORG_KINDS[0]?.list(client, rootUid);
 */
export interface OrgKind {
  /** Name used by `--kinds`. */
  kind: string;
  list(client: IrvClient, rootUid: string): Promise<OrgObject[]>;
}

const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
const PAGES = { concurrency: 8 };

/**
 * A kebab-case slug of an API name: lower case, runs of anything but letters and digits become `-`.
 *
 * @example
 * slug("Team.Payments ops"); // "team-payments-ops"
 */
export function slug(name: string): string {
  const s = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "unnamed" : s;
}

/**
 * The arguments of a resource from the inputs the provider reads back (`inputsOf`): inputs named in
 * `refs` become references, the dotted paths in `secrets` (write-only, never returned) secret
 * config entries named after the field; everything else is a literal.
 *
 * @example
 * argsOf({ parentUid: root, name: "a", oidc: { clientSecret: "" } }, ["parentUid"], ["oidc.clientSecret"]);
 * // { parentUid: { ref: root }, name: "a", oidc: { fields: { clientSecret: { secret: "clientSecret" } } } }
 */
export function argsOf(
  inputs: Props,
  refs: readonly string[],
  secrets: readonly string[] = [],
): Record<string, Arg> {
  const arg = (value: unknown, path: string): Arg | undefined => {
    if (secrets.includes(path)) return { secret: path.slice(path.lastIndexOf(".") + 1) };
    if (refs.includes(path) && typeof value === "string") return { ref: value };
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
    if (Array.isArray(value)) return value.flatMap((v, i) => arg(v, `${path}.${i}`) ?? []);
    if (typeof value === "object" && value !== null) return { fields: fieldsOf(value as Props, `${path}.`) };
    return undefined;
  };
  const fieldsOf = (props: Props, prefix: string) => {
    const out: Record<string, Arg> = {};
    for (const [key, value] of Object.entries(props)) {
      const a = arg(value, `${prefix}${key}`);
      if (a !== undefined) out[key] = a;
    }
    return out;
  };
  return fieldsOf(inputs, "");
}

/** What one kind's entry says; {@link orgKind} turns it into the generic reader. */
interface OrgKindSpec<Inputs extends Props, Server extends { uid: string }, Listed extends Server> {
  kind: string;
  definition: KindDefinition<Inputs, Server>;
  /** The objects as the kind reads them, with what the listing adds (a tag's repo). */
  list(client: IrvClient, rootUid: string): Promise<Listed[]>;
  /** Inputs that hold the uid of another object (a parent, a role). */
  refs: readonly string[];
  /** Dotted paths of write-only inputs: required secret config entries of the generated program. */
  secrets?: readonly string[];
  baseName(server: Listed): string;
  /** Default: the uid's parent. */
  parentUid?(server: Listed): string;
  /** Why an object of this kind is listed in the README instead of generated; undefined: generated. */
  notGenerated?(server: Listed): string | undefined;
}

function orgKind<Inputs extends Props, Server extends { uid: string }, Listed extends Server>(
  spec: OrgKindSpec<Inputs, Server, Listed>,
): OrgKind {
  const className = spec.definition.type;
  return {
    kind: spec.kind,
    async list(client, root) {
      return (await spec.list(client, root)).map((s) => {
        const base = {
          uid: s.uid,
          className,
          baseName: spec.baseName(s),
          parentUid: spec.parentUid?.(s) ?? parentOf(s.uid),
        };
        const why = spec.notGenerated?.(s);
        if (why !== undefined) return { ...base, args: {}, unsupported: why };
        return { ...base, args: argsOf(spec.definition.inputsOf(s), spec.refs, spec.secrets) };
      });
    },
  };
}

// Identities and role bindings are each listed once per read of the kinds (import-org lists every
// kind at once): the pull tokens are identities, and their bindings are theirs (adopted with the
// token, never as a RoleBinding). A list is shared while it is in flight only, so a later read (a
// second import-org with the same client) lists anew.
const shared = new WeakMap<IrvClient, Map<string, Promise<unknown>>>();
function once<T>(client: IrvClient, key: string, read: () => Promise<T>): Promise<T> {
  const reads = shared.get(client) ?? new Map<string, Promise<unknown>>();
  shared.set(client, reads);
  const inFlight = reads.get(key) as Promise<T> | undefined;
  if (inFlight !== undefined) return inFlight;
  const p = read();
  reads.set(key, p);
  const drop = () => {
    reads.delete(key);
  };
  p.then(drop, drop);
  return p;
}
const identitiesBelow = (client: IrvClient, root: string) =>
  once(client, `identities ${root}`, () => client.identities.collectParallel({ descendantsOf: root }, PAGES));
const bindingsBelow = (client: IrvClient, root: string) =>
  once(client, `bindings ${root}`, () => client.roleBindings.collectParallel({ descendantsOf: root }, PAGES));
const isPullToken = (i: Identity) => i.staticKeys?.issuer === PULL_TOKEN_ISSUER;
// Repos and identity providers name the objects under them (tags and bindings, mappings).
const reposBelow = (client: IrvClient, root: string) =>
  once(client, `repos ${root}`, () => client.repos.collectParallel({ descendantsOf: root }, PAGES));
const identityProvidersBelow = (client: IrvClient, root: string) =>
  once(client, `identityProviders ${root}`, () =>
    client.identityProviders.collectParallel({ descendantsOf: root }, PAGES),
  );
// By uid, from one list: each object under a repo or an identity provider takes its name from it.
const byUid = async <T extends { uid: string }>(list: Promise<T[]>) =>
  new Map((await list).map((o) => [o.uid, o] as const));

/** An object of a kind that lives under another (a repo's tag, an identity provider's mapping), with that parent. */
type Under<T, P> = T & { owner: P | undefined };

async function listUnder<T extends { uid: string }, P extends { uid: string }>(
  children: Promise<T[]>,
  owners: Promise<P[]>,
  ownerUid: (child: T) => string,
): Promise<Under<T, P>[]> {
  const [list, byOwner] = await Promise.all([children, byUid(owners)]);
  return list.map((c) => ({ ...c, owner: byOwner.get(ownerUid(c)) }));
}

// The readable part of a sink: `https://hooks.example.com/irv` → `hooks-example-com-irv`.
const sinkName = (sink: string) => {
  try {
    const url = new URL(sink);
    return slug(`${url.host}${url.pathname}`);
  } catch {
    return slug(sink);
  }
};

/** A pull token as `irv.registry.PullToken` reads it: its identity and its one binding. */
interface PullTokenObject {
  uid: string;
  identity: Identity;
  binding: RoleBinding | undefined;
}

async function listPullTokens(client: IrvClient, root: string): Promise<PullTokenObject[]> {
  const [identities, bindings] = await Promise.all([
    identitiesBelow(client, root),
    bindingsBelow(client, root),
  ]);
  return identities.filter(isPullToken).map((identity) => ({
    uid: identity.uid,
    identity,
    binding: bindings.find((b) => b.identity.uid === identity.uid),
  }));
}

/**
 * Why `import-org` lists group invites instead of generating them: an adopted invite would be a
 * resource whose one useful output (the code) is empty forever, and whose every edit replaces it
 * with a new invite; invites are one-shot and expire, so they belong to whoever sends them.
 *
 * @example
 * readme.push(`- ${uid}: ${INVITE_NOT_GENERATED}`);
 */
export const INVITE_NOT_GENERATED =
  "an invite's code is returned by its create only, so an adopted invite would have no code, and every change to an invite replaces it: create new invites with irv.iam.GroupInvite instead";

/**
 * Why `import-org` lists the tags of a synced repo instead of generating them: the sync copies its
 * source's tags into the repo and removes them, so a program that declared them would fight it.
 *
 * @example
 * readme.push(`- ${uid}: ${SYNCED_TAG_NOT_GENERATED}`);
 */
export const SYNCED_TAG_NOT_GENERATED =
  "its repo is synced: the sync makes and removes the tags of a synced repo from its source, so they are the repo's, not the program's";

/**
 * Why `import-org` leaves a repo's README out of the `irv.registry.Repo` it generates: the README is
 * a sub-resource of its own that the repos list does not carry (one more GET per repo), and writing
 * it needs the service's internal `repo.internal.admin`, so a generated `readme` would turn any later
 * edit of it into a refused update. Left out, the provider leaves the README as the service has it.
 *
 * @example
 * readme.push(REPO_README_NOT_GENERATED);
 */
export const REPO_README_NOT_GENERATED =
  "A repo's README is not generated: the repos list does not carry it (reading it is one more call per repo), and writing it needs the service's internal `repo.internal.admin` capability, which no built-in role holds. Left out of the program, it stays as the service has it; set `readme` on a repo to manage it.";

/**
 * The kinds `import-org` generates, in declaration order (a kind refers only to earlier ones:
 * bindings, pull tokens and identity providers to custom roles, mappings to identity providers,
 * tags and overlay bindings to repos, everything to groups).
 *
 * @example
 * ORG_KINDS.map((k) => k.kind); // ["groups", "roles", "identities", …]
 */
export const ORG_KINDS: readonly OrgKind[] = [
  orgKind({
    kind: "groups",
    definition: groupKind,
    list: (client, root) => client.groups.collectParallel({ descendantsOf: root }, PAGES),
    refs: ["parentUid"],
    baseName: (g) => slug(g.name),
  }),
  orgKind({
    kind: "roles",
    definition: roleKind,
    // The root's own custom roles and those of every group below it (built-in roles have no parent).
    list: listCustomRoles,
    refs: ["parentUid"],
    baseName: (r) => slug(r.name),
    parentUid: (r) => (r as PlacedRole).parentUid,
  }),
  orgKind({
    kind: "identities",
    definition: identityKind,
    // Pull tokens are identities too: they are the pullTokens kind's.
    list: async (client, root) => (await identitiesBelow(client, root)).filter((i) => !isPullToken(i)),
    refs: ["groupUid"],
    baseName: (i) => slug(i.name),
  }),
  orgKind({
    kind: "identityProviders",
    definition: identityProviderKind,
    list: identityProvidersBelow,
    refs: ["parentUid", "defaultRoleUid"],
    secrets: ["oidc.clientSecret"],
    baseName: (p) => slug(p.name),
  }),
  orgKind({
    kind: "accountAssociations",
    definition: accountAssociationsKind,
    list: (client, root) => client.accountAssociations.collectParallel({ descendantsOf: root }, PAGES),
    refs: ["groupUid"],
    baseName: (a) => slug(a.name),
    // The group's own association: its uid is the group's.
    parentUid: (a) => a.uid,
  }),
  orgKind({
    kind: "roleBindings",
    definition: roleBindingKind,
    // A pull token's binding is the token's (its delete removes it): not a RoleBinding of its own.
    list: async (client, root) => {
      const [bindings, identities] = await Promise.all([
        bindingsBelow(client, root),
        identitiesBelow(client, root),
      ]);
      const tokens = new Set(identities.filter(isPullToken).map((i) => i.uid));
      return bindings.filter((b) => !tokens.has(b.identity.uid));
    },
    refs: ["groupUid", "identityUid", "roleUid"],
    baseName: (b) => `${slug(b.identity.name)}-${slug(b.role.name)}`,
    parentUid: (b) => b.group.uid,
  }),
  orgKind({
    kind: "pullTokens",
    definition: pullTokenKind,
    list: listPullTokens,
    refs: ["groupUid", "roleUid"],
    // The token's name (its identity's, without the expiration stamp).
    baseName: (t) => slug(String(pullTokenKind.inputsOf(t).name)),
  }),
  orgKind({
    kind: "groupInvites",
    definition: groupInviteKind,
    list: (client, root) => client.groupInvites.collectParallel({ descendantsOf: root }, PAGES),
    refs: [],
    baseName: (i) => slug(i.email ?? "invite"),
    notGenerated: () => INVITE_NOT_GENERATED,
  }),
  orgKind({
    kind: "externalGroupRoleMappings",
    definition: externalGroupRoleMappingKind,
    list: (client, root) =>
      listUnder(
        client.externalGroupRoleMappings.collectParallel({ descendantsOf: root }, PAGES),
        identityProvidersBelow(client, root),
        (m) => m.identityProviderUid || parentOf(m.uid),
      ),
    refs: ["identityProviderUid", "roleUid", "scope"],
    baseName: (m) => `${slug(m.owner?.name ?? "idp")}-${slug(m.externalGroupId)}`,
    // The identity provider's group.
    parentUid: (m) => parentOf(parentOf(m.uid)),
  }),
  orgKind({
    kind: "repos",
    definition: repoKind,
    // The list carries no README: see REPO_README_NOT_GENERATED.
    list: reposBelow,
    refs: ["parentUid", "syncConfig.source"],
    baseName: (r) => slug(r.name),
  }),
  orgKind({
    kind: "overlays",
    definition: overlayKind,
    list: (client, root) => client.overlays.collectParallel({ descendantsOf: root }, PAGES),
    refs: ["parentUid"],
    baseName: (o) => slug(o.name),
  }),
  orgKind({
    kind: "tags",
    definition: tagKind,
    list: (client, root) =>
      listUnder(client.tags.collectParallel({ descendantsOf: root }, PAGES), reposBelow(client, root), (t) =>
        parentOf(t.uid),
      ),
    refs: ["repoUid"],
    baseName: (t) => `${slug(t.owner?.name ?? "repo")}-${slug(t.name)}`,
    // The repo's group.
    parentUid: (t) => parentOf(parentOf(t.uid)),
    notGenerated: (t) => (t.owner?.sync_config !== undefined ? SYNCED_TAG_NOT_GENERATED : undefined),
  }),
  orgKind({
    kind: "overlayBindings",
    definition: overlayBindingKind,
    list: (client, root) =>
      listUnder(
        client.overlayBindings.collectParallel({ descendantsOf: root }, PAGES),
        reposBelow(client, root),
        (b) => b.repo || parentOf(b.uid),
      ),
    refs: ["repoUid", "overlay"],
    baseName: (b) => `${slug(b.owner?.name ?? "repo")}-${slug(b.overlay?.name ?? "overlay")}`,
    parentUid: (b) => parentOf(parentOf(b.uid)),
  }),
  orgKind({
    kind: "subscriptions",
    definition: subscriptionKind,
    list: (client, root) => client.subscriptions.collectParallel({ descendantsOf: root }, PAGES),
    refs: ["parentUid"],
    baseName: (s) => sinkName(s.sink),
  }),
];
