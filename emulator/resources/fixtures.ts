import { ClaimMatch, GroupName } from "pulumi-irv/sdk";
import { z } from "zod";
import { isWellFormed } from "../core/index.js";
import { KIND_RULES } from "./kind-rules.js";
import type { ResourceService } from "./resource-service.js";

// Well-formed, as over HTTP: a lone surrogate would be stored as U+FFFD and collide with another name.
const Name = z
  .string()
  .min(1)
  .refine(isWellFormed, { message: "is not well-formed Unicode (it holds a lone surrogate)" });
const Uid = z.string().optional();

const TagFixture = z.object({ name: Name, uid: Uid, digest: z.string().optional() });
const RepoFixture = z.object({ name: Name, uid: Uid, tags: z.array(TagFixture).optional() });
const AdvisoryFixture = z.object({
  name: Name,
  uid: Uid,
  description: z.string().optional(),
  severity: z.string().optional(),
  /** Name of a repo of the same group the advisory concerns. */
  repo: z.string().optional(),
});
const IdentityFixture = z.object({
  name: Name,
  uid: Uid,
  description: z.string().optional(),
  claimMatch: ClaimMatch,
  /** Role names bound to the identity in its own group. */
  roles: z.array(Name).optional(),
});

/**
 * One group of a fixture file, with everything inside it.
 *
 * @example
 * const team: GroupFixture = { name: "team", repos: [{ name: "app" }] };
 */
export interface GroupFixture {
  name: string;
  uid?: string | undefined;
  description?: string | undefined;
  groups?: GroupFixture[] | undefined;
  identities?: z.infer<typeof IdentityFixture>[] | undefined;
  repos?: z.infer<typeof RepoFixture>[] | undefined;
  advisories?: z.infer<typeof AdvisoryFixture>[] | undefined;
}

const GroupFixture: z.ZodType<GroupFixture> = z.lazy(() =>
  z.object({
    name: GroupName,
    uid: Uid,
    description: z.string().optional(),
    groups: z.array(GroupFixture).optional(),
    identities: z.array(IdentityFixture).optional(),
    repos: z.array(RepoFixture).optional(),
    advisories: z.array(AdvisoryFixture).optional(),
  }),
);

/**
 * The fixture format (`--fixtures FILE`, `handle.seed(…)`): the root organization's contents as a
 * tree. Uids are generated unless given (a given uid must be its parent's uid plus `/` and 16 hex
 * digits). Custom roles come first so identities can name them in `roles`.
 *
 * @example
 * Fixtures.parse({
 *   roles: [{ name: "auditor" }],
 *   groups: [{ name: "platform", repos: [{ name: "app", tags: [{ name: "v1" }] }],
 *              advisories: [{ name: "CVE-2026-0001", severity: "HIGH", repo: "app" }] }],
 * });
 */
export const Fixtures = z.object({
  roles: z.array(z.object({ name: Name, description: z.string().optional() })).optional(),
  groups: z.array(GroupFixture).optional(),
  identities: z.array(IdentityFixture).optional(),
  repos: z.array(RepoFixture).optional(),
  advisories: z.array(AdvisoryFixture).optional(),
});
/**
 * A parsed fixture file.
 *
 * @example
 * const f: Fixtures = { groups: [{ name: "team" }] };
 */
export type Fixtures = z.infer<typeof Fixtures>;

/**
 * How many resources of each kind a fixture load created.
 *
 * @example
 * emu.seed({ groups: [{ name: "a" }] }); // { groups: 1 }
 */
export type SeedCounts = Record<string, number>;

/**
 * Loads fixtures into the organization in one transaction (all or nothing). Throws an ApiFault
 * (code 3, 5 or 6) naming the problem, e.g. a duplicate sibling name.
 *
 * @example
 * loadFixtures(service, Fixtures.parse(JSON.parse(readFileSync(file, "utf8"))));
 */
export function loadFixtures(service: ResourceService, fixtures: Fixtures): SeedCounts {
  const counts: SeedCounts = {};
  const insert = (
    kind: keyof typeof KIND_RULES,
    parent: string,
    fields: Record<string, unknown>,
    uid?: string,
  ) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    return service.insert(KIND_RULES[kind], parent, clean, uid).uid;
  };
  const roleUid = (name: string): string => {
    const uid = service.table.findByName("roles", "", name);
    if (uid === undefined) throw new Error(`fixtures: no role named ${JSON.stringify(name)}`);
    return uid;
  };
  const fill = (groupUid: string, node: Omit<GroupFixture, "name">) => {
    for (const i of node.identities ?? []) {
      const { roles, uid, ...fields } = i;
      const identityUid = insert("identities", groupUid, fields, uid);
      for (const r of roles ?? []) insert("roleBindings", groupUid, { identityUid, roleUid: roleUid(r) });
    }
    const repoUids = new Map<string, string>();
    for (const { tags, uid, ...fields } of node.repos ?? []) {
      const repoUid = insert("repos", groupUid, fields, uid);
      repoUids.set(fields.name, repoUid);
      for (const { uid: tagUid, ...tag } of tags ?? []) insert("tags", repoUid, tag, tagUid);
    }
    for (const { repo, uid, ...fields } of node.advisories ?? []) {
      const repoUid = repo === undefined ? undefined : repoUids.get(repo);
      if (repo !== undefined && repoUid === undefined) {
        throw new Error(
          `fixtures: advisory ${fields.name} names repo ${JSON.stringify(repo)}, which its group lacks`,
        );
      }
      insert("advisories", groupUid, { ...fields, repoUid }, uid);
    }
    for (const { groups, identities, repos, advisories, uid, ...fields } of node.groups ?? []) {
      const child = insert("groups", groupUid, fields, uid);
      fill(child, { groups, identities, repos, advisories });
    }
  };
  service.table.db.transaction(() => {
    for (const r of fixtures.roles ?? []) insert("roles", "", r);
    fill(service.orgUid, fixtures);
  });
  return counts;
}
