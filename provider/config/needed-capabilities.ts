import type { Capability } from "../../sdk/index.js";

type Verb = "list" | "create" | "update" | "delete";

/** Each collection's capability family and how many uid segments up its governing group is. */
const COLLECTIONS: Readonly<Record<string, { family: string; up: number | undefined }>> = {
  groups: { family: "groups", up: 0 },
  identities: { family: "identity", up: 1 },
  roles: { family: "roles", up: undefined },
  roleBindings: { family: "role_bindings", up: 1 },
  identityProviders: { family: "identity_providers", up: 1 },
  // One per group, named by the group's uid (account_associations.proto:166-167).
  accountAssociations: { family: "account_associations", up: 0 },
  groupInvites: { family: "group_invites", up: 1 },
  repos: { family: "repo", up: 1 },
  tags: { family: "tag", up: 2 },
  advisories: { family: "advisories", up: 1 },
};

// Published methods that need a second capability: an identity provider and an invite grant a role
// (identity_providers.proto:70-77, :102-109; group_invites.proto:35-39).
const ALSO: Readonly<Record<string, readonly Capability[]>> = {
  "identityProviders create": ["role_bindings.create"],
  "identityProviders update": ["role_bindings.create"],
  "groupInvites create": ["role_bindings.create"],
};

const VERBS: Readonly<Record<string, Verb>> = {
  GET: "list",
  POST: "create",
  PATCH: "update",
  DELETE: "delete",
};

/** What a refused request needed: its capabilities and the group they are held on. */
export interface NeededCapabilities {
  capabilities: readonly Capability[];
  /** The governing group's uid; undefined when the uid says nothing (a custom role's flat uid). */
  group: string | undefined;
}

/**
 * The capabilities an API request needs and the group it needs them on, from its method and path
 * (a create's parent, or the group governing the uid), to say in a 403 what to grant. Undefined for
 * requests outside the IAM, registry and vulnerabilities collections.
 *
 * @example
 * neededCapabilities("POST", "/iam/v2/groups/0123…4567");
 * // { capabilities: ["groups.create"], group: "0123…4567" }
 */
export function neededCapabilities(method: string, path: string): NeededCapabilities | undefined {
  const m = /^\/(?:iam|registry|events|vulnerabilities)\/v2(?:beta1)?\/([A-Za-z]+)(?:\/([^?]+))?/.exec(path);
  const verb = VERBS[method.toUpperCase()];
  const kind = m?.[1] === undefined ? undefined : COLLECTIONS[m[1]];
  if (m === null || verb === undefined || kind === undefined) return undefined;
  const uid = m[2];
  const capabilities = [`${kind.family}.${verb}`, ...(ALSO[`${m[1]} ${verb}`] ?? [])] as Capability[];
  // A create's path names the parent group; any other uid is governed by the group `up` segments above.
  const up = verb === "create" ? 0 : kind.up;
  const group = uid === undefined || up === undefined ? undefined : ancestor(uid, up);
  return { capabilities, group };
}

function ancestor(uid: string, up: number): string | undefined {
  const segments = uid.split("/");
  return segments.length > up ? segments.slice(0, segments.length - up).join("/") : undefined;
}
