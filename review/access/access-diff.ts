import { CAPABILITIES } from "../../sdk/index.js";
import type { AccessEntry } from "./access-listing.js";
import { listAccess } from "./access-listing.js";
import type { EffectiveAccess, GroupAccess } from "./effective-access.js";
import { ancestry, bindingScopes, effectiveAccess, isRoot, ownerBindingsAtRoot } from "./effective-access.js";
import { findingId, grantRowId } from "./finding-id.js";
import type { OrgModel, Ref, RoleNode } from "./org-model.js";
import type { RiskClass } from "./risk.js";
import { isBroadMatcher, isEscalationCapability, RISK_CLASSES } from "./risk.js";

/**
 * How a capability changed for an identity in a subtree. `maybe-*`: it depends on values the
 * preview does not know; a gate counts `maybe-gained` as gained.
 *
 * @example
 * const s: ChangeState = "maybe-gained";
 */
export type ChangeState = "gained" | "lost" | "maybe-gained" | "maybe-lost";

/**
 * An identity as a review row names it: its name and uid (or the planned resource's name), its
 * matcher, and whether the change creates it.
 *
 * @example
 * `${row.identity.name} (${row.identity.uid ?? "new"})`;
 */
export interface IdentityView {
  ref: Ref;
  name: string;
  uid?: string | undefined;
  matcher?: Readonly<Record<string, string>> | undefined;
  isNew: boolean;
}

/**
 * A group subtree as a review row names it: its path of names from the root (`/` is the root).
 *
 * @example
 * row.subtree.path; // "/platform/payments"
 */
export interface SubtreeView {
  ref: Ref;
  path: string;
  uid?: string | undefined;
  root: boolean;
}

/**
 * Why an identity holds (or held) a capability: binding → role → group.
 *
 * @example
 * `${p.binding} → ${p.role} → ${p.group}`;
 */
export interface Provenance {
  binding: string;
  role: string;
  group: string;
  /** The role is a custom role whose capabilities this change edits. */
  roleEdited: boolean;
  /** The role's uid, when known. */
  roleUid?: string | undefined;
  /** The binding's group uid, when known. */
  groupUid?: string | undefined;
  /** The binding is not the stack's: read live from the API (`--live`). */
  external?: boolean | undefined;
}

/**
 * A row's capabilities summarized by a role: they are all of that role's set.
 *
 * @example
 * `all of \`${row.allOf.role}\` (${row.allOf.count})`;
 */
export interface RoleSummary {
  role: string;
  count: number;
}

/**
 * One finding: a capability of a row, with its stable id (what `access-approvals.yaml` names).
 *
 * @example
 * const f: Finding = { id: "ar-5c1e0f9a2b7d4e36", capability: "groups.delete" };
 */
export interface Finding {
  id: string;
  capability: string;
}

/**
 * One row of an access review, the unit a person decides on: through one grant (binding → role),
 * an identity gains or loses capabilities in a group subtree. Its `id` (`ag-` and 16 hex) is stable
 * across previews; `access-approvals.yaml` may name it, or the grant by identity, group and role.
 *
 * @example
 * for (const r of review.rows) console.log(r.id, r.state, r.identity.name, r.subtree.path, r.grant.role);
 */
export interface AccessRow {
  id: string;
  state: ChangeState;
  identity: IdentityView;
  subtree: SubtreeView;
  capabilities: string[];
  /** Set when the capabilities are all of a known role's set (the grant's role first). */
  allOf?: RoleSummary | undefined;
  /** The grant: binding → role → group. */
  grant: Provenance;
  findings: Finding[];
  /** The grant, as a list (the shape of schema version 1). */
  provenance: Provenance[];
  /** Risk classes of a gained (or maybe gained) row; empty for losses. */
  risks: RiskClass[];
  /** Set when the identity's matcher changes: its whole access is granted to the new matcher. */
  matcherChanged?:
    | { from: Readonly<Record<string, string>>; to: Readonly<Record<string, string>> }
    | undefined;
}

/**
 * The plan leaves the organization without an owner-equivalent binding at the root.
 *
 * @example
 * if (review.lockOut) console.log(review.lockOut.id, review.lockOut.removed.join(", "));
 */
export interface LockOut {
  id: string;
  /** Names of the owner-equivalent root bindings the plan removes (or changes). */
  removed: string[];
}

/**
 * The result of comparing an organization before and after a change.
 *
 * @example
 * const review = reviewAccess(before, after);
 * console.log(summarize(review));
 */
export interface AccessReview {
  rows: AccessRow[];
  lockOut?: LockOut | undefined;
  /** The capabilities of `owner` the review judged against. */
  ownerCapabilities: readonly string[];
  /** Every identity's effective access before and after, at the groups where it is bound. */
  before: AccessEntry[];
  after: AccessEntry[];
}

const EMPTY: GroupAccess = { certain: new Set(), possible: new Set(), via: new Map() };
const GAINS: readonly ChangeState[] = ["gained", "maybe-gained"];

/**
 * Whether a row is a gain (`gained` or `maybe-gained`).
 *
 * @example
 * review.rows.filter(isGain);
 */
export const isGain = (row: AccessRow): boolean => GAINS.includes(row.state);

/**
 * Whether a row is risky: a gain with at least one risk class.
 *
 * @example
 * review.rows.filter(isRisky).length;
 */
export const isRisky = (row: AccessRow): boolean => isGain(row) && row.risks.length > 0;

/**
 * The capabilities of the built-in `owner` role as the models know them (read from the API), else
 * the sdk's list of every capability.
 *
 * @example
 * ownerCapabilitiesOf(after); // ["account_associations.create", …]
 */
export function ownerCapabilitiesOf(...models: OrgModel[]): readonly string[] {
  for (const m of models)
    for (const r of m.roles.values())
      if (r.builtIn && r.name === "owner" && r.capabilities !== undefined) return r.capabilities;
  return CAPABILITIES;
}

function pathOf(model: OrgModel, group: Ref): string {
  if (group.startsWith("?group:")) return `(unknown group of ${group.slice(group.lastIndexOf("::") + 2)})`;
  const names = ancestry(model, group)
    .filter((g) => !isRoot(model, g))
    .map((g) => {
      const node = model.groups.get(g);
      return node?.name ?? node?.uid ?? g;
    })
    .reverse();
  const top = ancestry(model, group).at(-1);
  const anchored = top !== undefined && isRoot(model, top);
  return `${anchored ? "/" : "…/"}${names.join("/")}`;
}

function identityView(before: OrgModel, after: OrgModel, ref: Ref): IdentityView {
  const node = after.identities.get(ref) ?? before.identities.get(ref);
  const unresolved = ref.startsWith("?identity:");
  return {
    ref,
    name: unresolved
      ? `(unknown identity of ${ref.slice(ref.lastIndexOf("::") + 2)})`
      : (node?.name ?? node?.uid ?? ref),
    uid: node?.uid,
    matcher: node?.matcher,
    isNew: unresolved || (node?.inStack === true && !before.identities.has(ref)),
  };
}

const sameMatcher = (a?: Readonly<Record<string, string>>, b?: Readonly<Record<string, string>>) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/**
 * Compares an organization before and after a change: one row per identity, group subtree and
 * kind of change, listing the capabilities and why (binding → role → group), with risk classes on
 * gains and the lock-out check. A capability changing at a group and all its descendants is
 * reported once, at the highest group. An identity whose matcher changes is reported as gaining
 * its whole access (someone else may now use it).
 *
 * @example
 * const review = reviewAccess(orgModelOf(state, opts), orgModelOf(planned, opts));
 */
export function reviewAccess(before: OrgModel, after: OrgModel): AccessReview {
  const owner = ownerCapabilitiesOf(after, before);
  const scopes = reviewScopes(before, after);
  const accB = effectiveAccess(before, owner, scopes);
  const accA = effectiveAccess(after, owner, scopes);
  const rows: AccessRow[] = [];
  for (const identity of new Set([...accB.keys(), ...accA.keys()]))
    rows.push(...identityRows(before, after, accB, accA, identity, owner));
  rows.sort(
    (x, y) =>
      GAINS.indexOf(y.state) - GAINS.indexOf(x.state) ||
      x.identity.name.localeCompare(y.identity.name) ||
      x.subtree.path.localeCompare(y.subtree.path) ||
      x.state.localeCompare(y.state) ||
      x.grant.binding.localeCompare(y.grant.binding),
  );

  const ownersBefore = ownerBindingsAtRoot(before, owner);
  const ownersAfter = ownerBindingsAtRoot(after, owner);
  const root = ownersBefore[0]?.group;
  const lockOut =
    ownersBefore.length > 0 && ownersAfter.length === 0 && root !== undefined
      ? { id: findingId("lock-out", root, "owner"), removed: ownersBefore.map((b) => b.name) }
      : undefined;
  const listing = (model: OrgModel, access: EffectiveAccess) =>
    listAccess(
      model,
      access,
      (i) => identityView(before, after, i).name,
      (g) => pathOf(model, g),
    );
  return {
    rows,
    lockOut,
    ownerCapabilities: owner,
    before: listing(before, accB),
    after: listing(after, accA),
  };
}

// Where each identity's access is evaluated: the groups of its bindings before and after, and every
// group whose parent the change moves (its access can change with no binding of its own there).
function reviewScopes(before: OrgModel, after: OrgModel): Map<Ref, Set<Ref>> {
  const scopes = bindingScopes(before);
  for (const [id, groups] of bindingScopes(after)) {
    const set = scopes.get(id) ?? new Set<Ref>();
    for (const g of groups) set.add(g);
    scopes.set(id, set);
  }
  const moved = [...after.groups.values()]
    .filter((g) => before.groups.has(g.ref) && before.groups.get(g.ref)?.parent !== g.parent)
    .map((g) => g.ref);
  if (moved.length > 0) for (const set of scopes.values()) for (const g of moved) set.add(g);
  return scopes;
}

// A role's set named when a row's capabilities are exactly it: the grant's own role first, then any
// known role's (built-ins first).
function roleSummaryOf(
  caps: readonly string[],
  grantRole: RoleNode | undefined,
  models: readonly OrgModel[],
): RoleSummary | undefined {
  const same = (r: RoleNode | undefined) =>
    r?.capabilities !== undefined &&
    r.capabilities.length === caps.length &&
    r.capabilities.every((c) => caps.includes(c));
  if (same(grantRole)) return { role: grantRole?.name ?? grantRole?.uid ?? "", count: caps.length };
  for (const m of models)
    for (const r of [...m.roles.values()].sort((x, y) => Number(y.builtIn) - Number(x.builtIn)))
      if (r.name !== undefined && same(r)) return { role: r.name, count: caps.length };
  return undefined;
}

function identityRows(
  before: OrgModel,
  after: OrgModel,
  accB: EffectiveAccess,
  accA: EffectiveAccess,
  identity: Ref,
  owner: readonly string[],
): AccessRow[] {
  const idB = before.identities.get(identity);
  const idA = after.identities.get(identity);
  const matcherChanged =
    idB?.matcher !== undefined && idA?.matcher !== undefined && !sameMatcher(idB.matcher, idA.matcher)
      ? { from: idB.matcher, to: idA.matcher }
      : undefined;
  const perB = accB.get(identity) ?? new Map<Ref, GroupAccess>();
  const perA = accA.get(identity) ?? new Map<Ref, GroupAccess>();

  // state → capability → groups where it changes
  const cells = new Map<ChangeState, Map<string, Set<Ref>>>();
  const mark = (state: ChangeState, cap: string, group: Ref) => {
    const byCap = cells.get(state) ?? new Map<string, Set<Ref>>();
    cells.set(state, byCap);
    byCap.set(cap, (byCap.get(cap) ?? new Set()).add(group));
  };
  for (const group of new Set([...perB.keys(), ...perA.keys()])) {
    const b = perB.get(group) ?? EMPTY;
    const a = perA.get(group) ?? EMPTY;
    const base = matcherChanged ? EMPTY : b;
    for (const c of a.possible) {
      if (a.certain.has(c) && !base.possible.has(c)) mark("gained", c, group);
      else if (!base.certain.has(c)) mark("maybe-gained", c, group);
    }
    for (const c of b.possible) {
      if (b.certain.has(c) && !a.possible.has(c)) mark("lost", c, group);
      else if (!a.certain.has(c)) mark("maybe-lost", c, group);
    }
  }

  // Report each change at the highest group it covers, one row per grant (binding → role).
  const rows = new Map<string, AccessRow>();
  const ident = identityView(before, after, identity);
  for (const [state, byCap] of cells) {
    const gain = GAINS.includes(state);
    const model = gain ? after : before;
    const acc = gain ? perA : perB;
    for (const [cap, groups] of byCap)
      for (const group of groups) {
        if (
          ancestry(model, group)
            .slice(1)
            .some((g) => groups.has(g))
        )
          continue;
        for (const binding of acc.get(group)?.via.get(cap) ?? []) {
          const roleRef = binding.role ?? `?role:${binding.ref}`;
          const key = `${state}\n${group}\n${binding.ref}\n${roleRef}`;
          let row = rows.get(key);
          if (row === undefined) {
            const role = binding.role === undefined ? undefined : model.roles.get(binding.role);
            const other =
              binding.role === undefined ? undefined : (gain ? before : after).roles.get(binding.role);
            const grant: Provenance = {
              binding: binding.name,
              role: role?.name ?? role?.uid ?? "(unknown role)",
              group: binding.group === undefined ? "(unknown group)" : pathOf(model, binding.group),
              roleEdited:
                role !== undefined &&
                !role.builtIn &&
                other !== undefined &&
                JSON.stringify(role.capabilities) !== JSON.stringify(other.capabilities),
              // A role known only by its uid (not listed, not the stack's) is still named by it.
              roleUid: role?.uid ?? (binding.role?.startsWith("urn:") === false ? binding.role : undefined),
              groupUid: binding.group === undefined ? undefined : model.groups.get(binding.group)?.uid,
              ...(binding.external === true ? { external: true } : {}),
            };
            row = {
              id: grantRowId(gain, identity, group, binding.ref, roleRef),
              state,
              identity: ident,
              subtree: {
                ref: group,
                path: pathOf(model, group),
                uid: model.groups.get(group)?.uid,
                root: isRoot(model, group),
              },
              capabilities: [],
              grant,
              findings: [],
              provenance: [grant],
              risks: [],
              matcherChanged: gain ? matcherChanged : undefined,
            };
            rows.set(key, row);
          }
          row.capabilities.push(cap);
          row.findings.push({ id: findingId(identity, group, cap), capability: cap });
        }
      }
  }
  for (const [key, row] of rows) {
    row.capabilities.sort();
    row.findings.sort((x, y) => x.capability.localeCompare(y.capability));
    const gain = isGain(row);
    const model = gain ? after : before;
    const roleRef = key.split("\n")[3] ?? "";
    row.allOf = roleSummaryOf(row.capabilities, model.roles.get(roleRef), [model, gain ? before : after]);
    if (gain) row.risks = risksOf(row, perA, perB, owner, matcherChanged !== undefined);
  }
  return [...rows.values()];
}

function risksOf(
  row: AccessRow,
  perA: ReadonlyMap<Ref, GroupAccess>,
  perB: ReadonlyMap<Ref, GroupAccess>,
  owner: readonly string[],
  matcherChanged: boolean,
): RiskClass[] {
  const a = perA.get(row.subtree.ref) ?? EMPTY;
  const b = matcherChanged ? EMPTY : (perB.get(row.subtree.ref) ?? EMPTY);
  const risks = new Set<RiskClass>();
  if (owner.every((c) => a.possible.has(c)) && !owner.every((c) => b.certain.has(c)))
    risks.add("owner-equivalent");
  if (row.capabilities.some(isEscalationCapability)) risks.add("escalation");
  if (row.subtree.root) risks.add("root");
  if (isBroadMatcher(row.identity.matcher) && (matcherChanged || row.capabilities.length > 0))
    risks.add("broad-matcher");
  if (row.identity.isNew) risks.add("new-identity");
  return RISK_CLASSES.filter((r) => risks.has(r));
}
