/**
 * A reference to an object of the organization: the URN of the stack's resource that manages it,
 * or, for an object the stack does not manage, its uid. A stack resource keeps its URN while its
 * uid is unknown (at preview) or changes (a replacement), so before and after compare by it.
 *
 * @example
 * const ref: Ref = "urn:pulumi:dev::org::pulumi-nodejs:dynamic/irv:Group::platform";
 */
export type Ref = string;

/**
 * A group of the organization tree. `parent` is `null` for the root organization and `undefined`
 * when it is not known (a planned value the preview cannot resolve).
 *
 * @example
 * const g: GroupNode = { ref: orgUid, uid: orgUid, name: "org", parent: null };
 */
export interface GroupNode {
  ref: Ref;
  uid?: string | undefined;
  name?: string | undefined;
  parent: Ref | null | undefined;
}

/**
 * An identity: who may assume it (`matcher`: the string fields of its variant, e.g. `issuer`,
 * `subjectPattern`) and whether the stack manages it.
 *
 * @example
 * const i: IdentityNode = { ref: urn, name: "ci", matcher: { issuer, subject: "repo:acme/app:ref:refs/heads/main" }, inStack: true };
 */
export interface IdentityNode {
  ref: Ref;
  uid?: string | undefined;
  name?: string | undefined;
  /** The variant's string fields (`claimMatch.issuer`, `awsIdentity.arn`, …); undefined when unknown. */
  matcher?: Readonly<Record<string, string>> | undefined;
  inStack: boolean;
}

/**
 * A role: its capabilities (display names), or `undefined` when they are not known.
 *
 * @example
 * const r: RoleNode = { ref: ownerUid, uid: ownerUid, name: "owner", capabilities: CAPABILITIES, builtIn: true };
 */
export interface RoleNode {
  ref: Ref;
  uid?: string | undefined;
  name?: string | undefined;
  capabilities: readonly string[] | undefined;
  builtIn: boolean;
}

/**
 * A role binding. A reference left `undefined` is a planned value the preview cannot resolve.
 *
 * @example
 * const b: BindingNode = { ref: urn, name: "ci-viewer", group: teamRef, identity: ciRef, role: viewerUid };
 */
export interface BindingNode {
  ref: Ref;
  name: string;
  group: Ref | undefined;
  identity: Ref | undefined;
  role: Ref | undefined;
  /** Read live from the API: a binding the stack does not manage. */
  external?: boolean | undefined;
}

/**
 * What the review knows of an organization at one moment (the stack's state, or the planned state
 * of a preview): groups, identities, roles and bindings, keyed by {@link Ref}.
 *
 * @example
 * const model = orgModelOf(resources, { roles: await client.roles.list({}) });
 */
export interface OrgModel {
  groups: ReadonlyMap<Ref, GroupNode>;
  identities: ReadonlyMap<Ref, IdentityNode>;
  roles: ReadonlyMap<Ref, RoleNode>;
  bindings: readonly BindingNode[];
}

/**
 * The value the Pulumi engine puts in place of a value not known yet during preview.
 *
 * @example
 * if (props.parentUid === PREVIEW_UNKNOWN) return undefined;
 */
export const PREVIEW_UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The parent uid of a hierarchical uid (`null` for a root uid, 40 hex without `/`).
 *
 * @example
 * parentUidOf(`${org}/0123456789abcdef`); // org
 */
export function parentUidOf(uid: string): string | null {
  const slash = uid.lastIndexOf("/");
  return slash < 0 ? null : uid.slice(0, slash);
}
