import type { AccessReview, AccessRow, KnownRole, StackResource } from "../../review/index.js";
import {
  irvClassOf,
  isRisky,
  orgModelOf,
  reviewAccess,
  stackResourceOf,
  uidIndexOf,
} from "../../review/index.js";
import type { AnyKind, Props } from "../runtime/index.js";
import { diffInputs, KIND_DEFINITIONS, keepWriteOnly } from "../runtime/index.js";
import type { StateResource } from "./stack-state.js";
import { isSecretValue } from "./state-secrets.js";

/**
 * One object as a list of the API answered it, typed by the pulumi-irv class that manages such an
 * object (`PullToken`: an identity with its one binding, as the kind reads it).
 *
 * @example
 * const o: LiveObject = { className: "Group", uid: team.uid, server: team };
 */
export interface LiveObject {
  className: string;
  uid: string;
  server: { uid: string } & Props;
}

/**
 * A field whose value in the API is not the one the stack's code last applied.
 *
 * @example
 * const f: FieldChange = { field: "description", code: "Team A", live: "edited by hand" };
 */
export interface FieldChange {
  field: string;
  /** What the stack's state holds (what the code applied). */
  code: unknown;
  /** What the API holds now. */
  live: unknown;
}

/**
 * What happened outside code: a managed object `changed` or `deleted`, or an object the stack does
 * not manage inside a group that it does (`unmanaged`).
 *
 * @example
 * const s: DriftState = "unmanaged";
 */
export type DriftState = "changed" | "deleted" | "unmanaged";

/**
 * One change made outside code, with the access it changes: the ids of the access review's rows
 * (who gained or lost which capability where) that it causes, and whether one of them is risky.
 *
 * @example
 * for (const f of report.findings) console.log(f.state, f.className, f.name, f.fields.map((x) => x.field));
 */
export interface DriftFinding {
  state: DriftState;
  /** The pulumi-irv class (`Group`, `RoleBinding`, …). */
  className: string;
  uid: string;
  /** The resource's logical name (managed), else the object's name in the API (or its uid). */
  name: string;
  /** The stack's resource (managed objects only). */
  urn?: string | undefined;
  /** A changed object's fields, code against live. */
  fields: FieldChange[];
  /** What the object is, in a few words (an unmanaged binding: who, which role, where). */
  detail?: string | undefined;
  /** Ids of the access rows this finding causes. */
  access: string[];
  /** One of those rows is a risky gain (the access review's risk classes). */
  risky: boolean;
}

/**
 * The comparison of a stack's state with the organization as it is.
 *
 * @example
 * const report = compareDrift({ state, live, subtrees, roles });
 * report.findings.filter((f) => f.risky);
 */
export interface DriftReport {
  findings: DriftFinding[];
  /** The access as the code left it (before) against the access as it is (after). */
  review: AccessReview;
}

/** What {@link compareDrift} compares. */
export interface DriftInput {
  /** The resources of the stack's exported state. */
  state: readonly StateResource[];
  /** Every object the live read found. */
  live: readonly LiveObject[];
  /** The topmost groups the stack manages: an object below one that the stack lacks is unmanaged. */
  subtrees: readonly string[];
  /** The roles the API holds (built-in and custom), for the access both sides grant. */
  roles?: readonly KnownRole[] | undefined;
  /** The kind definitions by class (default: the provider's). */
  kinds?: Readonly<Record<string, AnyKind>> | undefined;
}

// The classes an unmanaged object is reported for: each holds or grants access, is a place, or
// sends the organization's events out. Roles are listed once for the whole organization (flat uids),
// and an account association is its group's own settings: neither is "inside" a group as the others
// are. Repos count only in a stack that manages repos: elsewhere they are the registry's, not code's.
const UNMANAGED = new Set([
  "Group",
  "Identity",
  "RoleBinding",
  "IdentityProvider",
  "PullToken",
  "GroupInvite",
  "ExternalGroupRoleMapping",
  "Subscription",
]);
const UNMANAGED_WHEN_MANAGED = new Set(["Repo"]);

const uidOfState = (r: StateResource): string | undefined => {
  const uid = r.outputs?.uid ?? r.id;
  return typeof uid === "string" && uid !== "" ? uid : undefined;
};
const nameOfUrn = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);
const keyOf = (className: string, uid: string) => `${className} ${uid}`;
const below = (uid: string, subtrees: readonly string[]) => subtrees.some((s) => uid.startsWith(`${s}/`));

/**
 * Compares a stack's state with the organization as a live read found it, without calling the API:
 * each managed object is compared field by field in its kind's own terms (what a refresh and a
 * preview would call a change: write-only fields and values the service fills in are not), a
 * managed object the read did not find is deleted, and an object below a managed group (a mapping
 * also below a managed identity provider) that the state lacks is unmanaged. The access both sides
 * grant is then compared as the access review compares a plan: the code's side is the state, the
 * live side the state with every finding applied.
 *
 * @example
 * const { findings, review } = compareDrift({ state: deployment.resources, live, subtrees, roles });
 */
export function compareDrift(input: DriftInput): DriftReport {
  const kinds: Readonly<Record<string, AnyKind>> = input.kinds ?? KIND_DEFINITIONS;
  const liveBy = new Map(input.live.map((o) => [keyOf(o.className, o.uid), o]));
  const managedKeys = new Set<string>();
  const findings: DriftFinding[] = [];
  const before: StackResource[] = [];
  const after: StackResource[] = [];

  for (const r of input.state) {
    const className = irvClassOf(r.type);
    const kind = className === undefined ? undefined : kinds[className];
    const uid = uidOfState(r);
    if (className === undefined || kind === undefined || uid === undefined) continue;
    managedKeys.add(keyOf(className, uid));
    // A pull token's binding is the token's: the same binding is no unmanaged RoleBinding.
    const bindingUid = r.outputs?.bindingUid;
    if (className === "PullToken" && typeof bindingUid === "string")
      managedKeys.add(keyOf("RoleBinding", bindingUid));
    const coded = stackResourceOf(r);
    before.push(coded);
    const found = liveBy.get(keyOf(className, uid));
    const base = { className, uid, name: nameOfUrn(r.urn), urn: r.urn, access: [], risky: false };
    if (found === undefined) {
      findings.push({ ...base, state: "deleted", fields: [] });
      continue;
    }
    const liveInputs = kind.inputsOf(found.server) as Props;
    const fields = changedFields(kind, r.inputs ?? {}, liveInputs);
    if (fields.length > 0) findings.push({ ...base, state: "changed", fields });
    after.push({
      urn: r.urn,
      type: r.type,
      id: r.id,
      props: { ...coded.props, ...(kind.outputsOf(found.server, liveInputs) as Props) },
    });
  }

  const managedClasses = new Set([...managedKeys].map((k) => k.slice(0, k.indexOf(" "))));
  const reported = (cls: string) =>
    UNMANAGED.has(cls) || (UNMANAGED_WHEN_MANAGED.has(cls) && managedClasses.has(cls));
  const roleNames = new Map((input.roles ?? []).map((r) => [r.uid, r.name]));
  // An identity provider the stack manages holds its mappings wherever it is: a mapping under it
  // that the stack lacks is unmanaged even outside the managed groups (a provider at the root).
  const providers = input.state.flatMap((r) =>
    irvClassOf(r.type) === "IdentityProvider" ? (uidOfState(r) ?? []) : [],
  );
  const inside = (o: LiveObject) =>
    below(o.uid, input.subtrees) || (o.className === "ExternalGroupRoleMapping" && below(o.uid, providers));
  for (const o of input.live) {
    if (managedKeys.has(keyOf(o.className, o.uid)) || !reported(o.className)) continue;
    if (!inside(o)) continue;
    findings.push({
      state: "unmanaged",
      className: o.className,
      uid: o.uid,
      name: nameOf(o),
      fields: [],
      detail: detailOf(o, roleNames),
      access: [],
      risky: false,
    });
    const binding = o.className === "PullToken" ? (o.server.binding as Props | undefined) : o.server;
    if ((o.className === "RoleBinding" || o.className === "PullToken") && binding !== undefined)
      after.push(externalBinding(binding));
    if (o.className === "ExternalGroupRoleMapping")
      after.push({
        urn: `live::${o.uid}`,
        type: "irv:iam:ExternalGroupRoleMapping",
        id: o.uid,
        external: true,
        props: o.server,
      });
  }

  const uidIndex = uidIndexOf([...before, ...after]);
  const roles = input.roles ?? [];
  const review = reviewAccess(
    orgModelOf(before, { roles, uidIndex }),
    orgModelOf(after, { roles, uidIndex }),
  );
  for (const f of findings) {
    const rows = review.rows.filter((row) => causes(f, row));
    f.access = rows.map((row) => row.id);
    f.risky = rows.some(isRisky);
  }
  const order: Record<DriftState, number> = { deleted: 0, changed: 1, unmanaged: 2 };
  findings.sort(
    (a, b) =>
      order[a.state] - order[b.state] ||
      a.className.localeCompare(b.className) ||
      a.name.localeCompare(b.name) ||
      a.uid.localeCompare(b.uid),
  );
  return { findings, review };
}

// The inputs the code applied against the inputs the API describes, as the provider's diff
// compares them (a refresh then a preview would show these keys).
// What the API never returns (a role's parent, a client secret: the kind's `writeOnly`) is the
// state's on the live side too, as a refresh keeps it; a value the state keeps encrypted, at any
// depth, is taken as the live one: it cannot be compared without the stack's key.
function changedFields(kind: AnyKind, stateInputs: Props, apiInputs: Props): FieldChange[] {
  const liveInputs = keepWriteOnly(kind.writeOnly, apiInputs, stateInputs, true);
  const code = withoutSecrets(stateInputs, liveInputs) as Props;
  const { changed } = diffInputs(kind, liveInputs, code);
  const secret = new Set((kind.secrets ?? []).map((p: string) => p.split(".")[0]));
  return changed.map((field) =>
    secret.has(field)
      ? { field, code: "[secret]", live: "[secret]" }
      : { field, code: code[field], live: liveInputs[field] },
  );
}

function withoutSecrets(code: unknown, live: unknown): unknown {
  if (isSecretValue(code)) return live;
  if (typeof code !== "object" || code === null || Array.isArray(code)) return code;
  const at = typeof live === "object" && live !== null ? (live as Props) : {};
  return Object.fromEntries(Object.entries(code).map(([k, v]) => [k, withoutSecrets(v, at[k])]));
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const nested = (o: Props, k: string): Props =>
  typeof o[k] === "object" && o[k] !== null ? (o[k] as Props) : {};

function nameOf(o: LiveObject): string {
  const s = o.server;
  if (o.className === "RoleBinding" || o.className === "ExternalGroupRoleMapping") return o.uid;
  if (o.className === "PullToken") return str(nested(s, "identity").name) ?? o.uid;
  return str(s.name) ?? str(s.email) ?? o.uid;
}

function detailOf(o: LiveObject, roleNames: ReadonlyMap<string, string>): string | undefined {
  if (o.className === "ExternalGroupRoleMapping") {
    const s = o.server;
    const role = str(s.roleUid) ?? "(unknown)";
    return `${str(s.externalGroupId)} (external group of ${str(s.identityProviderUid)}) → ${roleNames.get(role) ?? role} at ${str(s.scope)}`;
  }
  if (o.className === "Subscription") return `sends the organization's events to ${str(o.server.sink)}`;
  const binding = o.className === "PullToken" ? nested(o.server, "binding") : o.server;
  if (o.className !== "RoleBinding" && o.className !== "PullToken") return undefined;
  const name = (k: string) => str(nested(binding, k).name) ?? str(nested(binding, k).uid) ?? "(unknown)";
  return `${name("identity")} → ${name("role")} at ${name("group")}`;
}

// A binding the stack does not manage, as the access review reads one live (`--live`).
function externalBinding(b: Props): StackResource {
  const uid = String(b.uid);
  return {
    urn: `live::${uid}`,
    type: "irv:iam:RoleBinding",
    id: uid,
    external: true,
    props: {
      uid,
      groupUid: nested(b, "group").uid,
      identityUid: nested(b, "identity").uid,
      roleUid: nested(b, "role").uid,
      identity: b.identity,
      group: b.group,
      role: b.role,
    },
  };
}

// Whether an access row follows from a finding: through the finding's binding, for its deleted (or
// re-matched) identity, in its deleted group, or through its edited role. A name or a description
// edited by hand grants nothing, so it is linked to no row.
function causes(f: DriftFinding, row: AccessRow): boolean {
  const refs = new Set([f.uid, ...(f.urn === undefined ? [] : [f.urn])]);
  switch (f.className) {
    case "RoleBinding":
    case "ExternalGroupRoleMapping":
      return f.urn === undefined ? row.grant.binding === f.uid : row.grant.binding === f.name;
    case "PullToken":
      return refs.has(row.identity.ref) || row.grant.binding === f.name;
    case "Identity":
      return refs.has(row.identity.ref) && (f.state === "deleted" || row.matcherChanged !== undefined);
    case "Group":
      return f.state === "deleted" && (refs.has(row.subtree.ref) || row.grant.groupUid === f.uid);
    case "Role":
      return row.grant.roleEdited && (row.grant.roleUid === f.uid || row.grant.role === f.name);
    default:
      return false;
  }
}
