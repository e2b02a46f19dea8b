import { setTimeout as sleep } from "node:timers/promises";
import type { IrvClient } from "../../../sdk/index.js";
import { ApiError } from "../../../sdk/index.js";

/**
 * How long a refused delete keeps being retried.
 *
 * @example
 * await deleteGroup(client, uid, "team-a", { stallMs: 5_000, maxMs: 30_000 });
 */
export interface DeleteGroupOptions {
  /** Give up when the blocking children have not changed for this long (ms). */
  stallMs?: number;
  /** Give up after this long in any case (ms). */
  maxMs?: number;
  sleep?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

const envMs = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 && process.env[name] !== "" && process.env[name] !== undefined
    ? v * 1000
    : fallback;
};

/**
 * A resource that cannot be deleted while others live under it (a group, a repo with tags or overlay
 * bindings, an identity provider with mappings): how to delete it, and which kinds of children to
 * name when the delete is refused.
 *
 * @example
 * const repo: NonEmptyParent = { singular: "repo", remove: (c, uid) => c.repos.delete(uid, { ignoreNotFound: true }), children: [["tag", "tags"]] };
 */
export interface NonEmptyParent {
  singular: string;
  remove(client: IrvClient, uid: string): Promise<void>;
  /** The kinds that live under it: [singular, client collection]. */
  children: readonly (readonly [string, ChildCollection])[];
  /** What to pass to tie a child to it (the input naming the parent), for the message. */
  tieWith: string;
  /** The precondition violation that says what blocks it; `RESOURCE_NOT_EMPTY` by default. */
  blockedBy?: string;
}

type ChildCollection =
  | "groups"
  | "identities"
  | "roleBindings"
  | "repos"
  | "advisories"
  | "identityProviders"
  | "accountAssociations"
  | "groupInvites"
  | "overlays"
  | "subscriptions"
  | "tags"
  | "overlayBindings"
  | "externalGroupRoleMappings";

/**
 * A group: its children are every kind created under a group.
 *
 * @example
 * await deleteWhenEmpty(client, GROUP_PARENT, uid, "team-a");
 */
export const GROUP_PARENT: NonEmptyParent = {
  singular: "group",
  remove: (client, uid) => client.groups.delete(uid, { ignoreNotFound: true }),
  children: [
    ["group", "groups"],
    ["identity", "identities"],
    ["role binding", "roleBindings"],
    ["repo", "repos"],
    ["advisory", "advisories"],
    ["identity provider", "identityProviders"],
    ["account association", "accountAssociations"],
    ["group invite", "groupInvites"],
    ["overlay", "overlays"],
    ["subscription", "subscriptions"],
  ],
  tieWith: "pass its uid as their parentUid/groupUid",
};

/**
 * A repo: refused while tags or overlay bindings live under it (FAILED_PRECONDITION, RESOURCE_NOT_EMPTY).
 *
 * @example
 * await deleteWhenEmpty(client, REPO_PARENT, repoUid, "nginx");
 */
export const REPO_PARENT: NonEmptyParent = {
  singular: "repo",
  remove: (client, uid) => client.repos.delete(uid, { ignoreNotFound: true }),
  children: [
    ["tag", "tags"],
    ["overlay binding", "overlayBindings"],
  ],
  tieWith: "pass its uid as their repoUid",
};

/**
 * An identity provider: refused while external group role mappings live under it.
 *
 * @example
 * await deleteWhenEmpty(client, IDENTITY_PROVIDER_PARENT, idpUid, "okta");
 */
export const IDENTITY_PROVIDER_PARENT: NonEmptyParent = {
  singular: "identity provider",
  remove: (client, uid) => client.identityProviders.delete(uid, { ignoreNotFound: true }),
  children: [["external group role mapping", "externalGroupRoleMappings"]],
  tieWith: "pass its uid as their identityProviderUid",
};

/**
 * An overlay: refused while an overlay binding names it (RESOURCE_IN_USE). Its bindings live under
 * repos, so the message names them from the service's refusal.
 *
 * @example
 * await deleteWhenEmpty(client, OVERLAY_PARENT, overlayUid, "debug-tools");
 */
export const OVERLAY_PARENT: NonEmptyParent = {
  singular: "overlay",
  remove: (client, uid) => client.overlays.delete(uid, { ignoreNotFound: true }),
  children: [],
  tieWith: "pass its uid as their overlay",
  blockedBy: "RESOURCE_IN_USE",
};

/**
 * Deletes a group (see {@link deleteWhenEmpty}).
 *
 * @example
 * await deleteGroup(client, uid, "team-a");
 */
export function deleteGroup(
  client: IrvClient,
  uid: string,
  name: string,
  options: DeleteGroupOptions = {},
): Promise<void> {
  return deleteWhenEmpty(client, GROUP_PARENT, uid, name, options);
}

/**
 * Deletes a resource that others live under. A refusal with `RESOURCE_NOT_EMPTY` is an ordering
 * problem, not a failure: while the blocking children keep changing (being deleted by parallel
 * steps) the delete is retried with backoff; once they stop changing, it fails with a message naming
 * every blocking child and what to do about it.
 *
 * @example
 * await deleteWhenEmpty(client, REPO_PARENT, repoUid, "nginx");
 */
export async function deleteWhenEmpty(
  client: IrvClient,
  parent: NonEmptyParent,
  uid: string,
  name: string,
  options: DeleteGroupOptions = {},
): Promise<void> {
  const stallMs = options.stallMs ?? envMs("IRV_DELETE_STALL_SECONDS", 15_000);
  const maxMs = options.maxMs ?? envMs("IRV_DELETE_MAX_SECONDS", 120_000);
  const wait = options.sleep ?? sleep;
  const now = options.now ?? Date.now;
  const start = now();
  let blockers = "";
  let unchangedSince = start;
  for (let attempt = 1; ; attempt++) {
    try {
      await parent.remove(client, uid);
      return;
    } catch (e) {
      const blocked = parent.blockedBy ?? "RESOURCE_NOT_EMPTY";
      if (!(e instanceof ApiError && e.preconditionViolations.some((v) => v.type === blocked))) throw e;
      const current = e.preconditionViolations
        .map((v) => v.subject ?? v.description)
        .sort()
        .join("\n");
      if (current !== blockers) {
        blockers = current;
        unchangedSince = now();
      }
      if (now() - unchangedSince >= stallMs || now() - start >= maxMs)
        throw await notEmptyError(client, parent, uid, name, e);
      await wait(Math.min(2000, 250 * 2 ** Math.min(attempt - 1, 3)));
    }
  }
}

// What names a child in the message: its name, or what identifies a kind without one.
function labelOf(item: Record<string, unknown>): string {
  if (typeof item.name === "string") return item.name;
  if (typeof item.advisoryId === "string") return item.advisoryId;
  if (typeof item.externalGroupId === "string") return item.externalGroupId;
  if (typeof item.sink === "string") return item.sink;
  const identity = item.identity as { name?: string } | undefined;
  const role = item.role as { name?: string } | undefined;
  if (identity && role) return `${identity.name} → ${role.name}`;
  const overlay = item.overlay as { name?: string } | undefined;
  return overlay?.name ?? "";
}

async function notEmptyError(
  client: IrvClient,
  parent: NonEmptyParent,
  uid: string,
  name: string,
  refusal: ApiError,
): Promise<Error> {
  const lines: string[] = [];
  try {
    for (const [singular, key] of parent.children) {
      const page = await client[key].list({ childrenOf: uid, pageSize: 20 });
      for (const item of page.items as Record<string, unknown>[])
        lines.push(`  - ${singular} ${JSON.stringify(labelOf(item))} (uid ${String(item.uid)})`);
      const more = (page.totalCount ?? page.items.length) - page.items.length;
      if (more > 0) lines.push(`  - … and ${more} more ${singular} children`);
    }
  } catch {
    // Listing is a courtesy: fall back to what the server said.
  }
  if (lines.length === 0)
    for (const v of refusal.preconditionViolations)
      lines.push(`  - ${v.description}${v.subject ? ` (uid ${v.subject})` : ""}`);
  return new Error(
    [
      `${parent.singular} ${JSON.stringify(name)} (uid ${uid}) cannot be deleted: it still contains resources that were not deleted before it (${parent.blockedBy ?? "RESOURCE_NOT_EMPTY"}):`,
      ...lines,
      `These are not managed by this stack, or are managed without a dependency on this ${parent.singular}.`,
      `Delete or move them first, or make the resources that create them depend on this ${parent.singular} (${parent.tieWith}, or use dependsOn), then run the command again.`,
      refusal.requestId ? `(request id ${refusal.requestId})` : "",
    ]
      .filter(Boolean)
      .join("\n"),
  );
}
