// The access review's effective-capability computation checked against the emulator's own
// authorization: for a random organization (groups, custom roles, identities, bindings), every
// (identity, group, capability) the review says is granted is allowed for that identity's token,
// and every other is refused. Probes name uids that do not exist: the emulator decides permission
// from the uid alone before any lookup (7 = refused; 5, or 3 for a create's empty body = allowed),
// so nothing is changed by probing. The bindings are read as `access-review --live` reads them.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { KnownRole, StackResource } from "../../../review/index.js";
import { effectiveAccess, liveBindings, orgModelOf } from "../../../review/index.js";
import { CAPABILITIES, IrvClient, RoleSchema, toWireCapability } from "../../../sdk/index.js";
import type { ErrorBody, TestEmulator } from "../emulator/support.js";
import { startTestEmulator } from "../emulator/support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

// A seeded generator: a failure names its seed and replays.
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const hex16 = () => Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
// Where each capability family lives; roles have flat uids that name no group, so only their
// create (under a group) is probed per group. Capabilities of other families are not probed.
const COLLECTION: Record<string, string> = {
  groups: "/iam/v2/groups",
  identity: "/iam/v2/identities",
  role_bindings: "/iam/v2/roleBindings",
  roles: "/iam/v2/roles",
  identity_providers: "/iam/v2/identityProviders",
  account_associations: "/iam/v2/accountAssociations",
  group_invites: "/iam/v2/groupInvites",
  repo: "/registry/v2/repos",
  tag: "/registry/v2/tags",
  advisories: "/vulnerabilities/v2/advisories",
};

// Operations the API guards with a second capability (they hand out a role): the probe of the
// first succeeds only with both (docs/contract-decisions.md).
const ALSO_NEEDS: Record<string, string> = {
  "identity_providers.create": "role_bindings.create",
  "identity_providers.update": "role_bindings.create",
  "group_invites.create": "role_bindings.create",
};

/** Whether the emulator lets `token` use `capability` at `group`; undefined when it cannot be probed. */
async function allowed(token: string, capability: string, group: string): Promise<boolean | undefined> {
  const [family = "", verb = "", ...more] = capability.split(".");
  // Only the CRUD verbs map to a route (others, like identity_providers.scim.manage, have none here).
  if (more.length > 0 || !["list", "create", "update", "delete"].includes(verb)) return undefined;
  const base = COLLECTION[family];
  if (base === undefined || (family === "roles" && verb !== "create")) return undefined;
  // The emulator serves the registry and advisories read-only: their writes have no route to probe.
  if (!base.startsWith("/iam/") && verb !== "list") return undefined;
  const child = family === "tag" ? `${group}/${hex16()}/${hex16()}` : `${group}/${hex16()}`;
  const [method, path, body] =
    verb === "create"
      ? ["POST", `${base}/${group}`, {}]
      : verb === "list"
        ? ["GET", `${base}/${child}`, undefined]
        : verb === "update"
          ? ["PATCH", `${base}/${child}`, {}]
          : ["DELETE", `${base}/${child}`, undefined];
  const a = await emu.call<ErrorBody>(method, path, { token, body });
  const code = a.body?.code;
  if (code === 7) return false;
  if (code === 5 || code === 3) return true;
  throw new Error(
    `probe ${method} ${path} answered ${a.status} ${a.text}: the probe is broken, not the review`,
  );
}

test.each([1, 2, 3])(
  "random organization (seed %i): the review's grants are exactly the emulator's",
  async (seed) => {
    const r = rng(seed);
    const groups = [emu.orgUid];
    for (let i = 0; i < 7; i++) groups.push((await emu.group(`g${seed}-${i}`, r.pick(groups))).uid);
    const roleUids = await Promise.all(["owner", "editor", "viewer"].map((n) => emu.roleUid(n)));
    const customs: { uid: string; group: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const group = r.pick(groups);
      // On the wire a capability is its enum name; a role holds at least one.
      const capabilities = [r.pick(CAPABILITIES), ...CAPABILITIES.filter(() => r.chance(0.3))].map(
        toWireCapability,
      );
      const role = await emu.ok<{ uid: string }>("POST", `/iam/v2/roles/${group}`, {
        body: { name: `custom-${seed}-${i}`, capabilities },
      });
      customs.push({ uid: role.uid, group });
    }
    const identities: { uid: string; subject: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const group = r.pick(groups);
      const subject = `oracle-${seed}-${i}`;
      const id = await emu.identity(group, `id-${seed}-${i}`, subject);
      identities.push({ uid: id.uid, subject });
      // 0-2 bindings, each at the identity's group or below, with a role bindable there.
      for (let k = r.int(3); k > 0; k--) {
        const at = r.pick(groups.filter((g) => g === group || g.startsWith(`${group}/`)));
        const bindable = [
          ...roleUids,
          ...customs.filter((c) => at === c.group || at.startsWith(`${c.group}/`)).map((c) => c.uid),
        ];
        const answer = await emu.call("POST", `/iam/v2/roleBindings/${at}`, {
          body: { identityUid: id.uid, roleUid: r.pick(bindable) },
        });
        if (answer.status !== 200 && (answer.body as ErrorBody).code !== 6) throw new Error(answer.text);
      }
    }

    // The organization as the review reads it (every object outside any stack, known by uid).
    const list = async <T>(path: string, key: string) =>
      ((await emu.ok<Record<string, T[]>>("GET", path, { query: { page_size: 200 } }))[key] ?? []) as T[];
    const roles: KnownRole[] = (await list<unknown>("/iam/v2/roles", "roles")).map((x) =>
      RoleSchema.parse(x),
    );
    const groupList = await list<{ uid: string; name: string }>("/iam/v2/groups", "groups");
    const resources: StackResource[] = groupList.map((g) => ({
      urn: `urn:pulumi:oracle::org::irv:iam:Group::${g.uid}`,
      type: "irv:iam:Group",
      props: { uid: g.uid, name: g.name },
    }));
    // The bindings as `access-review --live` reads them: every one in the org, paged (small pages,
    // so that paging is exercised), as access from outside any stack.
    const client = new IrvClient({ baseUrl: emu.baseUrl, token: emu.adminToken });
    const live = await liveBindings(client, { subtrees: [emu.orgUid] }, new Set(), 2);
    expect(live.requests).toBeGreaterThan(1);
    resources.push(...live.resources);
    const model = orgModelOf(resources, { roles });
    // Every identity evaluated at every group (a review evaluates only where it is bound).
    const everywhere = new Set(model.groups.keys());
    const access = effectiveAccess(model, CAPABILITIES, new Map(identities.map((i) => [i.uid, everywhere])));

    let probed = 0;
    let grants = 0;
    for (const id of identities) {
      const exchanged = await emu.exchange(await emu.workloadToken(id.subject), id.uid);
      const token = exchanged.body.token;
      for (const group of groups)
        for (const capability of CAPABILITIES) {
          const groupRef = `urn:pulumi:oracle::org::irv:iam:Group::${group}`;
          const holds = (c: string) => access.get(id.uid)?.get(groupRef)?.certain.has(c) ?? false;
          const also = ALSO_NEEDS[capability];
          const granted = holds(capability) && (also === undefined || holds(also));
          const answer = await allowed(token, capability, group);
          if (answer === undefined) continue;
          probed++;
          if (granted) grants++;
          expect(answer, `${capability} for ${id.subject} at ${group}`).toBe(granted);
        }
    }
    expect(probed).toBeGreaterThan(identities.length * groups.length * 20);
    // Not vacuous: both answers occur.
    expect(grants).toBeGreaterThan(0);
    expect(grants).toBeLessThan(probed);
  },
);
