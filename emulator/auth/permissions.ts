import type { BuiltInRoleName, Capability } from "pulumi-irv/sdk";
import { BUILT_IN_ROLE_CAPABILITIES, BUILT_IN_ROLE_NAMES } from "pulumi-irv/sdk";
import { isSelfOrDescendant } from "../core/index.js";

const DESCRIPTIONS: Readonly<Record<BuiltInRoleName, string>> = {
  owner: "Built-in role: full access, including role bindings and custom roles.",
  editor: "Built-in role: read everything, pull, and write repositories; no IAM writes.",
  viewer: "Built-in role: read-only access; pulls images and packages.",
  limited_owner: "Built-in role: read everything and pull; create identities and role bindings.",
  "registry.pull": "Built-in role: pull container images (the role of pull tokens).",
  "registry.pull_token_creator": "Built-in role: create registry pull tokens; pull images and packages.",
  "apk.pull": "Built-in role: pull the organization's APK packages.",
};

/**
 * The built-in roles: global, read-only capability sets, with the description that marks them as
 * built-in.
 * - `owner`: every capability.
 * - `editor`: reads everything, pulls and writes repos; no IAM write at all (the published `EditorCaps`).
 * - `viewer`: every `.list` (Get and List) and pulls.
 * - `limited_owner`: the viewer plus creating identities and role bindings.
 * - `registry.pull`, `registry.pull_token_creator`, `apk.pull`: the registry's and packages' roles.
 * The sets are the sdk's {@link BUILT_IN_ROLE_CAPABILITIES}, from the published `roles.go`.
 *
 * @example
 * BUILT_IN_ROLES.map((r) => r.name); // ["owner", "editor", "viewer", "limited_owner", "registry.pull", …]
 */
export const BUILT_IN_ROLES: readonly {
  name: string;
  description: string;
  capabilities: readonly Capability[];
}[] = BUILT_IN_ROLE_NAMES.map((name) => ({
  name,
  description: DESCRIPTIONS[name],
  capabilities: BUILT_IN_ROLE_CAPABILITIES[name],
}));

/**
 * Capabilities granted on a group and everything below it (one role binding).
 *
 * @example
 * const grant: Grant = { scope: teamUid, capabilities: new Set(["groups.list"]) };
 * const caller = new Caller(`identity ${identityUid}`, orgUid, [grant]);
 */
export interface Grant {
  scope: string;
  capabilities: ReadonlySet<Capability>;
}

/**
 * Who is calling and what they may do where. The admin token holds every capability on the root
 * organization; an identity holds the capabilities of its role bindings' roles, each on the
 * binding's group and below. A grant on the root covers every uid, well-formed or not, so that
 * root-level callers get "not found" rather than "denied" for nonsense uids.
 *
 * @example
 * const caller = new Caller("admin", orgUid, [{ scope: orgUid, capabilities: new Set(CAPABILITIES) }]);
 * caller.has("groups.create", `${orgUid}/0123456789abcdef`); // true
 */
export class Caller {
  private readonly scopes = new Map<Capability, readonly string[] | undefined>();

  constructor(
    /** For messages: `admin` or `identity <uid>`. */
    readonly label: string,
    private readonly orgUid: string,
    private readonly grants: readonly Grant[],
  ) {}

  private covers(g: Grant, scopeUid: string): boolean {
    return g.scope === this.orgUid || isSelfOrDescendant(scopeUid, g.scope);
  }

  /**
   * Whether the caller holds `capability` on `scopeUid` (through a grant on it or an ancestor).
   *
   * @example
   * if (!caller.has("role_bindings.create", groupUid)) throw permissionDenied("bind roles here");
   */
  has(capability: Capability, scopeUid: string): boolean {
    return this.grants.some((g) => g.capabilities.has(capability) && this.covers(g, scopeUid));
  }

  /**
   * Those of `capabilities` the caller does not hold on `scopeUid` (empty: it holds them all).
   *
   * @example
   * caller.lacking(role.capabilities, groupUid); // ["roles.delete"]
   */
  lacking(capabilities: Iterable<Capability>, scopeUid: string): Capability[] {
    return [...new Set(capabilities)].filter((c) => !this.has(c, scopeUid));
  }

  /**
   * The groups on which the caller holds `capability`, minimal (no scope below another), or
   * `undefined` when it holds it on the whole organization. Lists filter by these.
   *
   * @example
   * countRows(db, { kind: "groups", sort: "uid", descending: false, readableScopes: caller.scopesWith("groups.list") });
   */
  scopesWith(capability: Capability): readonly string[] | undefined {
    if (this.scopes.has(capability)) return this.scopes.get(capability);
    const held = this.grants.filter((g) => g.capabilities.has(capability)).map((g) => g.scope);
    const scopes = held.includes(this.orgUid)
      ? undefined
      : [...new Set(held)].filter((s) => !held.some((o) => o !== s && isSelfOrDescendant(s, o)));
    this.scopes.set(capability, scopes);
    return scopes;
  }
}
