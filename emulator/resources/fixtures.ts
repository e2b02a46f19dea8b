import {
  AccountAssociationsCreateSchema,
  durationMs,
  encodeRole,
  formatDuration,
  GroupInviteCreateSchema,
  GroupName,
  IdentityCreateSchema,
  IdentityProviderCreateSchema,
  OverlayBindingCreateSchema,
  OverlayCreateSchema,
  RoleCreateSchema,
  SubscriptionCreateSchema,
} from "pulumi-irv/sdk";
import { z } from "zod";
import { ancestorUid, isWellFormed } from "../core/index.js";
import { AdvisorySeed } from "./advisories.js";
import { KIND_RULES } from "./kind-rules.js";
import { RepoSeed } from "./repos.js";
import type { ResourceService } from "./resource-service.js";
import { TagSeed } from "./tags.js";

// Well-formed, as over HTTP: a lone surrogate would be stored as U+FFFD and collide with another name.
const Name = z
  .string()
  .min(1)
  .refine(isWellFormed, { message: "is not well-formed Unicode (it holds a lone surrogate)" });
const Uid = z.string().optional();

// Read-only kinds take the published message's fields (the seed schemas the control API uses too).
const TagFixture = TagSeed.extend({ uid: Uid });
// A repo's overlay bindings name their overlay by uid or name, as the API's create does.
const OverlayBindingFixture = OverlayBindingCreateSchema.extend({ uid: Uid });
const RepoFixture = RepoSeed.extend({
  uid: Uid,
  tags: z.array(TagFixture).optional(),
  overlayBindings: z.array(OverlayBindingFixture).optional(),
});
const OverlayFixture = OverlayCreateSchema.extend({ uid: Uid });
const SubscriptionFixture = SubscriptionCreateSchema.extend({ uid: Uid });
const AdvisoryFixture = AdvisorySeed.extend({ uid: Uid });
// Roles are named, not given by uid: the built-in ones or custom roles of the group or above.
const IdentityFixture = IdentityCreateSchema.and(
  z.object({
    uid: Uid,
    /** Role names bound to the identity in its own group. */ roles: z.array(Name).optional(),
  }),
);
const IdentityProviderFixture = IdentityProviderCreateSchema.extend({
  uid: Uid,
  // REQUIRED, as on the wire (identity_providers.proto): a role name of the group or above.
  defaultRole: Name,
});
const GroupInviteFixture = GroupInviteCreateSchema.omit({ roleUid: true }).extend({ uid: Uid, role: Name });
// No uid: a group's association has the group's.
const AccountAssociationsFixture = AccountAssociationsCreateSchema;
// Fixtures are written by people: capabilities by display name (`groups.list`) or enum name.
const RoleFixture = RoleCreateSchema.extend({ uid: Uid });

const contents = {
  roles: z.array(RoleFixture).optional(),
  identities: z.array(IdentityFixture).optional(),
  identityProviders: z.array(IdentityProviderFixture).optional(),
  accountAssociations: z.array(AccountAssociationsFixture).optional(),
  groupInvites: z.array(GroupInviteFixture).optional(),
  repos: z.array(RepoFixture).optional(),
  overlays: z.array(OverlayFixture).optional(),
  subscriptions: z.array(SubscriptionFixture).optional(),
  advisories: z.array(AdvisoryFixture).optional(),
  /** Custom assembly for this group and below (a repo's customOverlay needs it; on for the org). */
  customAssembly: z.boolean().optional(),
};
type Contents = { [K in keyof typeof contents]?: z.infer<(typeof contents)[K]> | undefined };

/**
 * One group of a fixture file, with everything inside it.
 *
 * @example
 * const team: GroupFixture = { name: "team", repos: [{ name: "app" }] };
 */
export interface GroupFixture extends Contents {
  name: string;
  uid?: string | undefined;
  description?: string | undefined;
  groups?: GroupFixture[] | undefined;
}

const GroupFixture: z.ZodType<GroupFixture> = z.lazy(() =>
  z.object({
    name: GroupName,
    uid: Uid,
    description: z.string().optional(),
    groups: z.array(GroupFixture).optional(),
    ...contents,
  }),
);

/**
 * The fixture format (`--fixtures FILE`, `POST /_emulator/fixtures`): the root organization's
 * contents as a tree, every kind included. Uids are generated unless given (a given uid must be its
 * parent's uid plus `/` and 16 hex digits). Roles are named (`roles` of identities, `role` of
 * invites, `defaultRole` of identity providers): built-in roles, or custom roles of the group or a
 * group above, which a group's `roles` defines before anything else in it.
 *
 * @example
 * Fixtures.parse({
 *   roles: [{ name: "auditor", capabilities: ["groups.list"] }],
 *   groups: [{ name: "platform", repos: [{ name: "app", tags: [{ name: "v1" }] }],
 *              advisories: [{ aliases: ["CVE-2026-0001"], artifactName: "app" }] }],
 * });
 */
export const Fixtures = z.object({ groups: z.array(GroupFixture).optional(), ...contents });
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
  const roleUid = (groupUid: string, name: string): string => {
    for (let g: string | undefined = groupUid; g !== undefined; g = ancestorUid(g, 1)) {
      const uid = service.table.findByName("roles", g, name);
      if (uid !== undefined) return uid;
    }
    const builtIn = service.table.findByName("roles", "", name);
    if (builtIn === undefined) throw new Error(`fixtures: no role named ${JSON.stringify(name)} here`);
    return builtIn;
  };
  const fill = (groupUid: string, node: Contents & { groups?: GroupFixture[] | undefined }) => {
    for (const { uid, ...fields } of node.roles ?? []) insert("roles", groupUid, encodeRole(fields), uid);
    for (const i of node.identities ?? []) {
      const { roles, uid, ...fields } = i;
      const identityUid = insert("identities", groupUid, fields, uid);
      for (const r of roles ?? [])
        insert("roleBindings", groupUid, { identityUid, roleUid: roleUid(groupUid, r) });
    }
    for (const { uid, defaultRole, ...fields } of node.identityProviders ?? []) {
      insert("identityProviders", groupUid, { ...fields, defaultRole: roleUid(groupUid, defaultRole) }, uid);
    }
    for (const fields of node.accountAssociations ?? []) insert("accountAssociations", groupUid, fields);
    for (const { uid, role, ...fields } of node.groupInvites ?? []) {
      // Fixtures may write "48h"; the service reads protojson's "172800s".
      const ttl = formatDuration(durationMs(fields.ttl) ?? 0);
      insert("groupInvites", groupUid, { ...fields, ttl, roleUid: roleUid(groupUid, role) }, uid);
    }
    if (node.customAssembly !== undefined) service.setCustomAssembly(groupUid, node.customAssembly);
    for (const { uid, ...fields } of node.overlays ?? []) insert("overlays", groupUid, fields, uid);
    for (const { uid, ...fields } of node.subscriptions ?? []) insert("subscriptions", groupUid, fields, uid);
    for (const { tags, overlayBindings, uid, ...fields } of node.repos ?? []) {
      const repoUid = insert("repos", groupUid, fields, uid);
      for (const { uid: tagUid, ...tag } of tags ?? []) insert("tags", repoUid, tag, tagUid);
      for (const { uid: bindingUid, ...b } of overlayBindings ?? [])
        insert("overlayBindings", repoUid, b, bindingUid);
    }
    for (const { uid, ...fields } of node.advisories ?? []) insert("advisories", groupUid, fields, uid);
    for (const { groups, uid, name, description, ...rest } of node.groups ?? []) {
      const child = insert("groups", groupUid, { name, description }, uid);
      fill(child, { groups, ...rest });
    }
  };
  service.table.db.transaction(() => fill(service.orgUid, fixtures));
  return counts;
}
