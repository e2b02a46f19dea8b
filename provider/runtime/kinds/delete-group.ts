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
 * Deletes a group. A refusal with `RESOURCE_NOT_EMPTY` is an ordering problem, not a failure: while
 * the blocking children keep changing (being deleted by parallel steps) the delete is retried with
 * backoff; once they stop changing, it fails with a message naming every blocking child and what
 * to do about it.
 *
 * @example
 * await deleteGroup(client, uid, "team-a");
 */
export async function deleteGroup(
  client: IrvClient,
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
      await client.groups.delete(uid, { ignoreNotFound: true });
      return;
    } catch (e) {
      if (!(e instanceof ApiError && e.isResourceNotEmpty())) throw e;
      const current = e.preconditionViolations
        .map((v) => v.subject ?? v.description)
        .sort()
        .join("\n");
      if (current !== blockers) {
        blockers = current;
        unchangedSince = now();
      }
      if (now() - unchangedSince >= stallMs || now() - start >= maxMs)
        throw await notEmptyError(client, uid, name, e);
      await wait(Math.min(2000, 250 * 2 ** Math.min(attempt - 1, 3)));
    }
  }
}

const CHILD_KINDS = [
  ["group", "groups"],
  ["identity", "identities"],
  ["role binding", "roleBindings"],
  ["repo", "repos"],
  ["advisory", "advisories"],
  ["identity provider", "identityProviders"],
  ["account association", "accountAssociations"],
  ["group invite", "groupInvites"],
] as const;

async function notEmptyError(
  client: IrvClient,
  uid: string,
  name: string,
  refusal: ApiError,
): Promise<Error> {
  const lines: string[] = [];
  try {
    for (const [singular, key] of CHILD_KINDS) {
      const page = await client[key].list({ childrenOf: uid, pageSize: 20 });
      for (const item of page.items) {
        const label =
          "name" in item && typeof item.name === "string"
            ? item.name
            : "advisoryId" in item
              ? item.advisoryId
              : "identity" in item
                ? `${item.identity.name} → ${item.role.name}`
                : "";
        lines.push(`  - ${singular} ${JSON.stringify(label)} (uid ${item.uid})`);
      }
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
      `group ${JSON.stringify(name)} (uid ${uid}) cannot be deleted: it still contains resources that were not deleted before it (RESOURCE_NOT_EMPTY):`,
      ...lines,
      "These are not managed by this stack, or are managed without a dependency on this group.",
      "Delete or move them first, or make the resources that create them depend on this group (pass its uid as their parentUid/groupUid, or use dependsOn), then run the command again.",
      refusal.requestId ? `(request id ${refusal.requestId})` : "",
    ]
      .filter(Boolean)
      .join("\n"),
  );
}
