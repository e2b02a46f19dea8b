import {
  GROUP_NAME_PATTERN_SOURCE,
  KINDS,
  type KindName,
  type KindSpec,
  RoleBindingCreateSchema,
} from "pulumi-irv/sdk";
import type { z } from "zod";
import { Level } from "../auth/index.js";

/**
 * How the emulator treats one kind of {@link KINDS}: nesting, permissions, validation.
 *
 * @example
 * const rules: KindRules = KIND_RULES.identities;
 * rules.required; // ["name", "claimMatch", "claimMatch.issuer", "claimMatch.subject"]
 */
export interface KindRules {
  name: KindName;
  spec: KindSpec;
  /**
   * How many uid segments up the governing group is: 0 for groups (a group governs itself), 1 for
   * the direct children of a group, 2 for tags (group/repo/tag); `undefined` for roles (flat).
   */
  scopeDepth: number | undefined;
  /** The kind a create's parent uid must name. */
  parentKind: "groups" | "repos" | undefined;
  /** Level needed to create, update and delete. */
  writeLevel: Level;
  /** Whether two siblings of this kind may share a name (role bindings have no name). */
  uniqueNames: boolean;
  /** The rule the mutable fields must satisfy after a create or an update. */
  validate: z.ZodType | undefined;
  /** Extra words for a violation of a field, e.g. the name pattern. */
  hints: Readonly<Record<string, string>>;
  /** Mask paths that can never be cleared. */
  required: readonly string[];
}

const NAME_HINT = { name: `must match the pattern ${GROUP_NAME_PATTERN_SOURCE}` };

const rules = (r: Omit<KindRules, "spec">): KindRules => ({ ...r, spec: KINDS[r.name] });

const iamChild = (name: KindName, writeLevel: Level): KindRules =>
  rules({
    name,
    scopeDepth: 1,
    parentKind: "groups",
    writeLevel,
    uniqueNames: true,
    validate: KINDS[name].create,
    hints: {},
    required: ["name"],
  });

const readOnly = (name: KindName, scopeDepth: number, parentKind: "groups" | "repos"): KindRules =>
  rules({
    name,
    scopeDepth,
    parentKind,
    writeLevel: Level.ADMIN,
    uniqueNames: true,
    validate: undefined,
    hints: {},
    required: [],
  });

/**
 * The rules of every kind, by kind name.
 *
 * @example
 * KIND_RULES.tags.scopeDepth; // 2: a tag's permissions are its group's (group/repo/tag)
 */
export const KIND_RULES: Readonly<Record<KindName, KindRules>> = {
  groups: rules({
    name: "groups",
    scopeDepth: 0,
    parentKind: "groups",
    writeLevel: Level.WRITE,
    uniqueNames: true,
    validate: KINDS.groups.create,
    hints: NAME_HINT,
    required: ["name"],
  }),
  identities: {
    ...iamChild("identities", Level.WRITE),
    required: ["name", "claimMatch", "claimMatch.issuer", "claimMatch.subject"],
  },
  roles: rules({
    name: "roles",
    scopeDepth: undefined,
    parentKind: undefined,
    writeLevel: Level.ADMIN,
    uniqueNames: true,
    validate: KINDS.roles.create,
    hints: {},
    required: ["name"],
  }),
  roleBindings: {
    ...iamChild("roleBindings", Level.ADMIN),
    uniqueNames: false,
    validate: RoleBindingCreateSchema.pick({ roleUid: true }),
    required: ["roleUid"],
  },
  identityProviders: iamChild("identityProviders", Level.WRITE),
  accountAssociations: iamChild("accountAssociations", Level.WRITE),
  groupInvites: iamChild("groupInvites", Level.WRITE),
  repos: readOnly("repos", 1, "groups"),
  tags: readOnly("tags", 2, "repos"),
  advisories: readOnly("advisories", 1, "groups"),
};

/**
 * The kinds by collection name (the path segment).
 *
 * @example
 * RULES_BY_COLLECTION.get("roleBindings")?.name; // "roleBindings"
 */
export const RULES_BY_COLLECTION: ReadonlyMap<string, KindRules> = new Map(
  Object.values(KIND_RULES).map((r) => [r.spec.collection, r]),
);
