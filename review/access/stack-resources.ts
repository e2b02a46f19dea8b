import { BUILT_IN_ROLE_CAPABILITIES } from "../../sdk/index.js";
import type { BindingNode, GroupNode, IdentityNode, OrgModel, Ref, RoleNode } from "./org-model.js";
import { PREVIEW_UNKNOWN, parentUidOf } from "./org-model.js";

/**
 * One resource of a stack as the review reads it, from whichever source: exported state (inputs
 * merged with outputs), a preview's planned state, or a policy pack's `PolicyResource`.
 *
 * @example
 * const r: StackResource = { urn, type: "irv:iam:RoleBinding", props: { groupUid, identityUid, roleUid } };
 */
export interface StackResource {
  urn: string;
  type: string;
  /** The resource's id (known for an existing resource even when its `uid` output is not). */
  id?: string | undefined;
  props: Readonly<Record<string, unknown>>;
  /** Which resources each property came from (`propertyDependencies`), by URN. */
  propertyDependencies?: Readonly<Record<string, readonly string[]>> | undefined;
  /** An object read live from the API that the stack does not manage (`--live`). */
  external?: boolean | undefined;
}

/**
 * A role the API answered (built-in or custom), with its capabilities.
 *
 * @example
 * const roles: KnownRole[] = (await client.roles.list({})).items;
 */
export interface KnownRole {
  uid: string;
  name: string;
  capabilities: readonly string[];
}

// A pull token (`irv.registry.PullToken`) is an identity and its one binding: both are modelled. An
// external group role mapping is a grant too: everyone in an identity provider's external group
// holds the role at its scope, so the group of people is modelled as one identity (named after the
// provider, which the review reads for its name only).
const CLASSES = [
  "Group",
  "Identity",
  "Role",
  "RoleBinding",
  "PullToken",
  "IdentityProvider",
  "ExternalGroupRoleMapping",
] as const;
type IamClass = (typeof CLASSES)[number];

/**
 * The pulumi-irv class of a type token of either family — the dynamic providers'
 * `pulumi-nodejs:dynamic/irv:<Class>` or the native plugin's `irv:<module>:<Class>` (`irv:iam:…`,
 * `irv:registry:PullToken`, `irv:events:Subscription`) — or undefined.
 *
 * @example
 * irvClassOf("irv:iam:RoleBinding"); // "RoleBinding"
 * irvClassOf("pulumi-nodejs:dynamic/irv:Group"); // "Group"
 * irvClassOf("irv:registry:PullToken"); // "PullToken"
 * irvClassOf("irv:events:Subscription"); // "Subscription"
 */
export function irvClassOf(type: string): string | undefined {
  const m = /^(?:pulumi-nodejs:dynamic\/irv|irv:iam|irv:registry|irv:events):([A-Za-z]+)$/.exec(type);
  return m?.[1];
}

// A custom role may not take a built-in role's name, so the name tells a built-in apart.
const builtInCapabilities = (name: string | undefined): readonly string[] | undefined =>
  name !== undefined && Object.hasOwn(BUILT_IN_ROLE_CAPABILITIES, name)
    ? BUILT_IN_ROLE_CAPABILITIES[name as keyof typeof BUILT_IN_ROLE_CAPABILITIES]
    : undefined;

/** The role of a pull token whose `roleUid` is left out (`irv.registry.PullToken`). */
const PULL_TOKEN_ROLE = "registry.pull";

const known = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" && v !== PREVIEW_UNKNOWN ? v : undefined;

/**
 * The review's identity of an external group role mapping: the members of `externalGroupId` at the
 * identity provider `idp` (its stack resource's URN, else its uid).
 *
 * @example
 * externalGroupRef(idpUrn, "platform-admins"); // "external-group:<idpUrn>#platform-admins"
 */
export const externalGroupRef = (idp: Ref, externalGroupId: string): Ref =>
  `external-group:${idp}#${externalGroupId}`;

/** The last segment of a URN: the resource's logical name. */
const nameOfUrn = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The uid of every stack resource the sources know, to its URN: references by uid to a resource of
 * the stack become its URN. Build it from the before and the after resources together, so that a
 * uid known only in the state still names the planned resource.
 *
 * @example
 * const index = uidIndexOf([...before, ...after]);
 */
export function uidIndexOf(resources: Iterable<StackResource>): Map<string, Ref> {
  const index = new Map<string, Ref>();
  for (const r of resources) {
    // Only the kinds the review models: an account association shares its group's uid.
    if (!(CLASSES as readonly string[]).includes(irvClassOf(r.type) ?? "")) continue;
    for (const uid of [known(r.props.uid), known(r.id)]) if (uid !== undefined) index.set(uid, r.urn);
  }
  return index;
}

const stringFields = (v: unknown): Record<string, string> | undefined => {
  if (typeof v !== "object" || v === null) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    // A secret or a nested value is shown as such, never as its content.
    if (typeof x === "string") out[k] = x === PREVIEW_UNKNOWN ? "(unknown)" : x;
    else if (x !== undefined && x !== null) out[k] = "[secret]";
  }
  return out;
};

// The identity variants' field names before and after the wire names (issue 27) are both read.
const VARIANTS = ["claimMatch", "awsIdentity", "staticKeys", "static", "servicePrincipal"];

function matcherOf(props: Readonly<Record<string, unknown>>): Record<string, string> | undefined {
  for (const variant of VARIANTS) {
    const v = props[variant];
    if (v === PREVIEW_UNKNOWN) return undefined;
    if (typeof v === "string") return { [variant]: v };
    const fields = stringFields(v);
    if (fields !== undefined) return fields;
  }
  return undefined;
}

/**
 * The organization as a set of stack resources describes it. References are resolved in this
 * order: a known uid (to the stack resource holding it, else the uid itself); an unknown value
 * through the property's dependencies (the one resource of the right class it came from); what stays
 * unresolved is `undefined` (the review's "maybe"). Roles the stack does not manage come from
 * `roles` (read from the API); a binding's hydrated `identity`, `group` and `role` name the objects
 * the stack does not manage.
 *
 * @example
 * const index = uidIndexOf([...before, ...after]);
 * const after = orgModelOf(planned, { roles, uidIndex: index });
 */
export function orgModelOf(
  resources: Iterable<StackResource>,
  options: { roles?: readonly KnownRole[]; uidIndex?: ReadonlyMap<string, Ref> } = {},
): OrgModel {
  const list = [...resources].filter((r) =>
    (CLASSES as readonly string[]).includes(irvClassOf(r.type) ?? ""),
  );
  const classOf = new Map(list.map((r) => [r.urn, irvClassOf(r.type) as IamClass]));
  const uidIndex = new Map(options.uidIndex ?? uidIndexOf(list));
  const groups = new Map<Ref, GroupNode>();
  const identities = new Map<Ref, IdentityNode>();
  const roles = new Map<Ref, RoleNode>();
  const bindings: BindingNode[] = [];

  const refOf = (uid: string): Ref => uidIndex.get(uid) ?? uid;
  const resolve = (r: StackResource, prop: string, cls: IamClass): Ref | undefined => {
    const uid = known(r.props[prop]);
    if (uid !== undefined) return refOf(uid);
    const from = (r.propertyDependencies?.[prop] ?? []).filter((u) => classOf.get(u) === cls);
    return from.length === 1 ? from[0] : undefined;
  };
  // Groups outside the stack are known by uid: their ancestors follow from it.
  const externalGroup = (uid: string, name?: string): void => {
    for (let u: string | null = uid; u !== null; u = parentUidOf(u)) {
      const ref = refOf(u);
      if (groups.has(ref) || classOf.has(ref)) continue;
      const parent = parentUidOf(u);
      groups.set(ref, { ref, uid: u, name: u === uid ? name : undefined, parent: parent && refOf(parent) });
    }
  };

  // A built-in role named where its uid is not known: the API's, else the published set.
  const builtInRoleRef = (roleName: string): Ref => {
    for (const role of roles.values()) if (role.builtIn && role.name === roleName) return role.ref;
    const ref = `built-in:${roleName}`;
    const published = builtInCapabilities(roleName);
    roles.set(ref, { ref, name: roleName, capabilities: published && [...published], builtIn: true });
    return ref;
  };

  for (const r of options.roles ?? []) {
    const ref = refOf(r.uid);
    if (!classOf.has(ref))
      roles.set(ref, {
        ref,
        uid: r.uid,
        name: r.name,
        capabilities: [...r.capabilities],
        builtIn: builtInCapabilities(r.name) !== undefined,
      });
  }

  // The organization of a mapping's identity provider: from its uid, or from the provider in the
  // stack (its uid, else its group's, when it is made in the same update).
  const byUrn = new Map(list.map((r) => [r.urn, r]));
  const orgRootOfProvider = (props: Readonly<Record<string, unknown>>, idp: Ref | undefined) => {
    const provider = idp === undefined ? undefined : byUrn.get(idp)?.props;
    const uid = known(props.identityProviderUid) ?? known(provider?.uid) ?? known(provider?.parentUid);
    return uid?.split("/")[0];
  };

  // Identity providers name the external groups of their mappings.
  const providerNames = new Map<Ref, string>();
  for (const r of list)
    if (classOf.get(r.urn) === "IdentityProvider")
      providerNames.set(r.urn, known(r.props.name) ?? nameOfUrn(r.urn));

  for (const r of list) {
    const uid = known(r.props.uid) ?? known(r.id);
    const name = known(r.props.name) ?? nameOfUrn(r.urn);
    switch (classOf.get(r.urn)) {
      case "Group": {
        const parentUid = uid === undefined ? undefined : parentUidOf(uid);
        const parent =
          parentUid === undefined ? resolve(r, "parentUid", "Group") : parentUid && refOf(parentUid);
        groups.set(r.urn, { ref: r.urn, uid, name, parent });
        if (parentUid) externalGroup(parentUid);
        else if (uid === undefined && known(r.props.parentUid) !== undefined)
          externalGroup(known(r.props.parentUid) as string);
        break;
      }
      case "Identity":
        identities.set(r.urn, { ref: r.urn, uid, name, matcher: matcherOf(r.props), inStack: true });
        break;
      case "Role": {
        const caps = r.props.capabilities;
        roles.set(r.urn, {
          ref: r.urn,
          uid,
          name,
          capabilities:
            Array.isArray(caps) && caps.every((c) => typeof c === "string" && c !== PREVIEW_UNKNOWN)
              ? [...(caps as string[])].sort()
              : caps === undefined
                ? []
                : undefined,
          builtIn: false,
        });
        break;
      }
      case "PullToken": {
        // Its identity holds a key pair only the resource had (no matcher to judge); its binding is
        // in the token's group, to `roleUid` or, left out, the built-in registry.pull.
        identities.set(r.urn, { ref: r.urn, uid, name, matcher: { pullToken: name }, inStack: true });
        const role =
          r.props.roleUid === undefined && r.propertyDependencies?.roleUid === undefined
            ? builtInRoleRef(PULL_TOKEN_ROLE)
            : resolve(r, "roleUid", "Role");
        bindings.push({ ref: r.urn, name, group: resolve(r, "groupUid", "Group"), identity: r.urn, role });
        const groupUid = known(r.props.groupUid);
        if (groupUid !== undefined && !classOf.has(refOf(groupUid))) externalGroup(groupUid);
        break;
      }
      case "ExternalGroupRoleMapping": {
        const idp = resolve(r, "identityProviderUid", "IdentityProvider");
        const external = known(r.props.externalGroupId);
        const identity =
          idp === undefined || external === undefined ? undefined : externalGroupRef(idp, external);
        if (identity !== undefined && !identities.has(identity)) {
          const provider = providerNames.get(idp as Ref) ?? (idp as Ref);
          identities.set(identity, {
            ref: identity,
            name: `${external} (external group of ${provider})`,
            matcher: { identityProvider: provider, externalGroup: external as string },
            inStack: false,
          });
        }
        // Left out (or unknown before the create, with nothing it comes from), the scope is the
        // service's default: the organization root, the first 40 hex digits of the provider's uid.
        const scope =
          known(r.props.scope) ??
          (r.propertyDependencies?.scope?.length ? undefined : orgRootOfProvider(r.props, idp));
        bindings.push({
          ref: r.urn,
          name: r.external === true ? (uid ?? nameOfUrn(r.urn)) : nameOfUrn(r.urn),
          external: r.external === true,
          group: scope === undefined ? resolve(r, "scope", "Group") : refOf(scope),
          identity,
          role: resolve(r, "roleUid", "Role"),
        });
        if (scope !== undefined && !classOf.has(refOf(scope))) externalGroup(scope);
        break;
      }
      case "RoleBinding": {
        const hydrated = (k: string) => {
          const v = r.props[k];
          return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
        };
        const b: BindingNode = {
          ref: r.urn,
          // A binding outside the stack has no logical name: its uid names it.
          name: r.external === true ? (uid ?? nameOfUrn(r.urn)) : nameOfUrn(r.urn),
          external: r.external === true,
          group: resolve(r, "groupUid", "Group"),
          identity: resolve(r, "identityUid", "Identity"),
          role: resolve(r, "roleUid", "Role"),
        };
        bindings.push(b);
        const groupUid = known(r.props.groupUid);
        if (groupUid !== undefined && !classOf.has(refOf(groupUid)))
          externalGroup(groupUid, known(hydrated("group").name));
        const identityUid = known(r.props.identityUid);
        if (
          identityUid !== undefined &&
          b.identity !== undefined &&
          !classOf.has(b.identity) &&
          !identities.has(b.identity)
        ) {
          const h = hydrated("identity");
          const matcher = stringFields({ issuer: h.issuer, subject: h.subject });
          identities.set(b.identity, {
            ref: b.identity,
            uid: identityUid,
            name: known(h.name),
            matcher: matcher && Object.keys(matcher).length > 0 ? matcher : undefined,
            inStack: false,
          });
        }
        const roleUid = known(r.props.roleUid);
        if (roleUid !== undefined && b.role !== undefined && !classOf.has(b.role) && !roles.has(b.role)) {
          // A role the API did not list to us: a built-in one (its hydrated name says so) has the
          // published capabilities the sdk ships; any other stays unknown ("maybe").
          const name = known(hydrated("role").name);
          const published = builtInCapabilities(name);
          roles.set(b.role, {
            ref: b.role,
            uid: roleUid,
            name,
            capabilities: published === undefined ? undefined : [...published],
            builtIn: published !== undefined,
          });
        }
        break;
      }
    }
  }
  return { groups, identities, roles, bindings };
}
