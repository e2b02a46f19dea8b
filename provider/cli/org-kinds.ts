import type { IrvClient } from "../../sdk/index.js";

/**
 * A constructor argument of a generated resource: a literal, the `uid` of another object (a
 * variable when that object is generated too), or a write-only field the user must supply as a
 * secret config value.
 *
 * @example
 * const args: Record<string, Arg> = { parentUid: { ref: parentUid }, name: "team-a" };
 */
export type Arg = string | { ref: string } | { secret: string } | { fields: Record<string, Arg> };

/**
 * One object of the organization, ready to render.
 *
 * @example
 * const o: OrgObject = { uid, className: "Group", baseName: "team-a", parentUid: root, args: { name: "team-a" } };
 */
export interface OrgObject {
  uid: string;
  /** `irv.iam.<className>`. */
  className: string;
  /** Kebab-case name before it is made unique. */
  baseName: string;
  /** The group it lives in: its logical name qualifies a base name shared with another object. */
  parentUid: string;
  args: Record<string, Arg>;
  /** Why the provider has no resource for this object yet: it is listed in the README, not generated. */
  unsupported?: string;
}

/**
 * How `import-org` reads and writes one resource kind: list every object under a root (all pages),
 * and turn each into a logical name and constructor arguments that equal what the provider's
 * `read` returns (so the import adopts it unchanged). A new kind is one entry.
 *
 * @example
 * const objects = await ORG_KINDS.groups.list(client, rootUid);
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

const withDescription = (args: Record<string, Arg>, description: string | undefined) =>
  description ? { ...args, description } : args;

/**
 * The kinds `import-org` generates, in declaration order (a kind refers only to earlier ones).
 *
 * @example
 * ORG_KINDS.map((k) => k.kind); // ["groups", "identities", "roleBindings"]
 */
export const ORG_KINDS: readonly OrgKind[] = [
  {
    kind: "groups",
    async list(client, root) {
      const groups = await client.groups.collectParallel({ descendantsOf: root }, PAGES);
      return groups.map((g) => ({
        uid: g.uid,
        className: "Group",
        baseName: slug(g.name),
        parentUid: parentOf(g.uid),
        args: withDescription({ parentUid: { ref: parentOf(g.uid) }, name: g.name }, g.description),
      }));
    },
  },
  {
    kind: "identities",
    async list(client, root) {
      const identities = await client.identities.collectParallel({ descendantsOf: root }, PAGES);
      return identities.map((i): OrgObject => {
        const base = {
          uid: i.uid,
          className: "Identity",
          baseName: slug(i.name),
          parentUid: parentOf(i.uid),
        };
        // irv.iam.Identity takes a claimMatch of exactly an issuer and a subject today; the other
        // identity variants (and claimMatch patterns) get a resource with issue 13.
        const m = i.claimMatch;
        const plain =
          m !== undefined && m.issuer !== undefined && m.subject !== undefined && Object.keys(m).length === 2;
        if (!plain || m?.issuer === undefined || m.subject === undefined)
          return {
            ...base,
            args: {},
            unsupported: "an identity other than a claimMatch of exactly issuer and subject",
          };
        return {
          ...base,
          args: withDescription(
            {
              groupUid: { ref: parentOf(i.uid) },
              name: i.name,
              claimMatch: { fields: { issuer: m.issuer, subject: m.subject } },
            },
            i.description,
          ),
        };
      });
    },
  },
  {
    kind: "roleBindings",
    async list(client, root) {
      const bindings = await client.roleBindings.collectParallel({ descendantsOf: root }, PAGES);
      return bindings.map((b) => ({
        uid: b.uid,
        className: "RoleBinding",
        baseName: `${slug(b.identity.name)}-${slug(b.role.name)}`,
        parentUid: b.group.uid,
        args: {
          groupUid: { ref: b.group.uid },
          identityUid: { ref: b.identity.uid },
          roleUid: { ref: b.role.uid },
        },
      }));
    },
  },
];
