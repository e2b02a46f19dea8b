// Benchmark 3b: API calls per step for the wider org, every IAM kind and issue 45's kinds.
//
// The program of benchmark 1 (test/e2e/fixtures/org-tree-program) with its wider options on: groups
// in a tree, identities of every variant (claimMatch exact and with patterns, awsIdentity, static,
// servicePrincipal), bindings to built-in roles and to custom roles, custom roles, identity
// providers, group invites and account associations; repos (half of them synced, with a custom
// overlay), tags, overlays bound to repos, subscriptions and external group role mappings. One stack
// against the in-process emulator runs preview (create) → up (create) → preview (no changes) →
// preview and up of an update of every updatable kind in place (a replace of every invite,
// subscription and mapping; a tag's new digest is one upsert) → refresh → up (no changes) → destroy,
// and the emulator's counters are compared, per kind and route, with the minimum: one call per
// create, update, read and delete, none for a preview; a replace is its create plus its delete; a
// repo's create and read also read its README (its own rpc, which `readmeContent` shows).
// Data-source calls (`getRole`, one list call per distinct built-in role each time the program runs)
// are counted apart. Goal: exactly 1.00.
//
// Run: npm run bench -- wider
// Options: --unit=N (IRV_BENCH_WIDER_UNIT, default 30: 17 × N resources), --rounds=N (IRV_BENCH_ROUNDS, default 1).
import type * as Sdk from "../sdk/index.ts";
import type { OperationResult, TestStack } from "../test/e2e/harness/index.ts";
import type { Measurement } from "./support/index.ts";
import {
  DATA_SOURCE_ROUTE,
  loadDist,
  medianOf,
  ms,
  numberOption,
  progress,
  runBench,
  table,
  timeSteps,
  times,
} from "./support/index.ts";

const UNIT = numberOption("unit", "IRV_BENCH_WIDER_UNIT", 30);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 1);

/** The API collections of the kinds, in the order the tables show them. */
const KINDS = [
  "groups",
  "identities",
  "roles",
  "roleBindings",
  "identityProviders",
  "groupInvites",
  "accountAssociations",
  "repos",
  "tags",
  "overlays",
  "overlayBindings",
  "subscriptions",
  "externalGroupRoleMappings",
] as const;
type Kind = (typeof KINDS)[number];

/** Where each kind's routes are: its collection on the GA paths (overlays and bindings on v2beta1). */
const { collectionPath, KINDS: API_KINDS } = await loadDist<typeof Sdk>("sdk/index.js");
const PATH: Readonly<Record<Kind, string>> = Object.fromEntries(
  KINDS.map((k) => [k, collectionPath(API_KINDS[k], "v2")]),
) as Record<Kind, string>;

/** How many of each kind the program declares. */
const COUNT: Readonly<Record<Kind, number>> = {
  groups: UNIT,
  identities: 2 * UNIT,
  roles: UNIT,
  // 2 × UNIT to built-in roles (one per identity), UNIT to the custom roles.
  roleBindings: 3 * UNIT,
  identityProviders: UNIT,
  groupInvites: UNIT,
  accountAssociations: UNIT,
  // UNIT repos of their own and UNIT synced from them; a tag and an overlay binding on each own repo.
  repos: 2 * UNIT,
  tags: UNIT,
  overlays: UNIT,
  overlayBindings: UNIT,
  subscriptions: UNIT,
  externalGroupRoleMappings: UNIT,
};
/** Replaced by the update step (no update rpc, or an immutable field changed): create, then delete. */
const REPLACED: readonly Kind[] = ["groupInvites", "subscriptions", "externalGroupRoleMappings"];
/** Not touched by the update step. */
const UNCHANGED: readonly Kind[] = ["overlays", "overlayBindings"];
const RESOURCES = KINDS.reduce((n, k) => n + COUNT[k], 0);
const BUILT_IN_BINDINGS = 2 * UNIT;

type Method = "POST" | "GET" | "PATCH" | "DELETE";
/** Minimum calls of a step: method → kind → count. */
type Minimum = Partial<Record<Method, Partial<Record<Kind, number>>>>;

const each = (n: (k: Kind) => number): Partial<Record<Kind, number>> =>
  Object.fromEntries(KINDS.map((k) => [k, n(k)]).filter(([, v]) => (v as number) > 0));

interface Step {
  key: string;
  label: string;
  minimum: Minimum;
  /** Whether the program runs (so its data sources do). */
  runsProgram: boolean;
  run(stack: TestStack, round: number): Promise<OperationResult>;
}

const STEPS: readonly Step[] = [
  {
    key: "preview-create",
    label: `preview (${RESOURCES} to create)`,
    minimum: {},
    runsProgram: true,
    run: (s) => s.preview(),
  },
  {
    key: "up-create",
    label: `up (create ${RESOURCES})`,
    // A repo's create also reads its README.
    minimum: { POST: each((k) => COUNT[k]), GET: { repos: COUNT.repos } },
    runsProgram: true,
    run: (s) => s.up(),
  },
  {
    key: "preview-same",
    label: "preview (no changes)",
    minimum: {},
    runsProgram: true,
    run: (s) => s.preview({ args: ["--expect-no-changes"] }),
  },
  {
    key: "preview-update",
    label: "preview (the updates below)",
    minimum: {},
    runsProgram: true,
    run: async (s, round) => {
      await s.setConfig({
        revision: ` (revision ${round})`,
        roleShift: String(round % 2),
        round: String(round),
      });
      return s.preview();
    },
  },
  {
    key: "up-update",
    label: "up (update every updatable kind, replace every invite, subscription and mapping)",
    minimum: {
      // Descriptions of groups, identities, roles, identity providers, account associations and own
      // repos, a synced repo's custom overlay; the role of every binding to a built-in role. Invites,
      // subscriptions (a new sink) and mappings (a new role) have no update: each is replaced. A tag's
      // new digest is one create (the service's upsert).
      PATCH: each((k) =>
        k === "roleBindings"
          ? BUILT_IN_BINDINGS
          : REPLACED.includes(k) || UNCHANGED.includes(k) || k === "tags"
            ? 0
            : COUNT[k],
      ),
      POST: { ...each((k) => (REPLACED.includes(k) ? COUNT[k] : 0)), tags: COUNT.tags },
      DELETE: each((k) => (REPLACED.includes(k) ? COUNT[k] : 0)),
    },
    runsProgram: true,
    // The config changed in the preview step before.
    run: (s) => s.up(),
  },
  {
    key: "refresh",
    label: `refresh (read ${RESOURCES})`,
    // A repo is read with its README: two calls.
    minimum: { GET: each((k) => (k === "repos" ? 2 : 1) * COUNT[k]) },
    runsProgram: false,
    run: (s) => s.refresh(),
  },
  {
    // What refresh wrote must read back as what the program declares (write-only fields, sets,
    // defaults): else every later up would update something nobody changed.
    key: "up-after-refresh",
    label: "up (no changes, after refresh)",
    minimum: {},
    runsProgram: true,
    run: (s) => s.up(),
  },
  {
    key: "destroy",
    label: `destroy (delete ${RESOURCES})`,
    minimum: { DELETE: each((k) => COUNT[k]) },
    runsProgram: false,
    run: (s) => s.destroy(),
  },
];

/** `getRole` of the one built-in role the bindings use in a run (viewer, then editor). */
const DATA_SOURCE_MINIMUM = 1;

/** One row of the per-kind table: a method on a kind's item or collection route. */
interface RouteCount {
  route: string;
  kind: Kind | undefined;
  method: string;
  calls: number;
  minimum: number;
}

const routeOf = (method: string, kind: Kind) => `${method} ${PATH[kind]}/*`;

/** Every route the step called or should have called, with its calls and minimum. */
function compare(step: Step, byRoute: Readonly<Record<string, number>>): RouteCount[] {
  const rows = new Map<string, RouteCount>();
  for (const [method, perKind] of Object.entries(step.minimum))
    for (const [kind, minimum] of Object.entries(perKind ?? {}) as [Kind, number][])
      rows.set(routeOf(method, kind), { route: routeOf(method, kind), kind, method, calls: 0, minimum });
  for (const [route, calls] of Object.entries(byRoute)) {
    if (route === DATA_SOURCE_ROUTE) continue;
    const [method = "", path = ""] = route.split(" ");
    const kind = KINDS.find((k) => path.startsWith(`${PATH[k]}/`) || path === PATH[k]);
    const row = rows.get(route) ?? { route, kind, method, calls: 0, minimum: 0 };
    rows.set(route, { ...row, calls });
  }
  const order = (r: RouteCount) => (r.kind ? KINDS.indexOf(r.kind) : KINDS.length);
  return [...rows.values()].sort((a, b) => order(a) - order(b) || a.method.localeCompare(b.method));
}

const ratio = (calls: number, minimum: number) =>
  minimum === 0
    ? calls === 0
      ? "exact (0 = 0)"
      : "**over**"
    : calls === minimum
      ? times(1)
      : `**${times(calls / minimum)}**`;

/** One run of a step: its measurement, the routes against their minimum, the changes the engine reported. */
type StepRun = Measurement & { rows: RouteCount[]; changes: unknown };

await runBench({}, async (session) => {
  const stack = await session.orgTree({
    stackName: "wider",
    prefix: "w",
    per: COUNT.groups,
    config: {
      identities: String(COUNT.identities),
      bindings: String(BUILT_IN_BINDINGS),
      roles: "viewer,editor",
      variants: "true",
      customRoles: String(COUNT.roles),
      identityProviders: String(COUNT.identityProviders),
      invites: String(COUNT.groupInvites),
      accountAssociations: String(COUNT.accountAssociations),
      repos: String(COUNT.repos),
      tags: String(COUNT.tags),
      overlays: String(COUNT.overlays),
      overlayBindings: String(COUNT.overlayBindings),
      subscriptions: String(COUNT.subscriptions),
      mappings: String(COUNT.externalGroupRoleMappings),
    },
  });

  progress(
    `wider org: ${RESOURCES} resources of every kind, ${ROUNDS} rounds (load average ${session.machine.loadAverage})`,
  );
  const samples = await timeSteps<Step, "wider", StepRun>({
    rounds: ROUNDS,
    steps: STEPS,
    sides: ["wider"],
    run: async (step, _side, round) => {
      const { result, ...m } = await session.measure(() => step.run(stack, round));
      const changes = session.harness.summary(result.events)?.resourceChanges ?? {};
      return { ...m, rows: compare(step, m.calls.byRoute), changes };
    },
    note: (r) => JSON.stringify(r.changes),
  });

  const total = (rows: readonly RouteCount[], key: "calls" | "minimum") =>
    rows.reduce((n, r) => n + r[key], 0);
  const stepRows: string[][] = [];
  const routeRows: string[][] = [];
  let exact = true;
  for (const step of STEPS) {
    const all = samples[step.key]?.wider ?? [];
    // The worst round: the most calls above the minimum.
    const worst = all.reduce(
      (a, b) => (total(b.rows, "calls") > total(a.rows, "calls") ? b : a),
      all[0] as StepRun,
    );
    const dsExpected = step.runsProgram ? DATA_SOURCE_MINIMUM : 0;
    exact &&= all.every(
      (r) => r.rows.every((x) => x.calls === x.minimum) && r.calls.dataSource === dsExpected,
    );
    const calls = total(worst.rows, "calls");
    const minimum = total(worst.rows, "minimum");
    stepRows.push([
      step.label,
      ms(medianOf(all, (r) => r.durationMs)),
      String(calls),
      String(minimum),
      ratio(calls, minimum),
      `${worst.calls.dataSource} (minimum ${dsExpected})`,
    ]);
    for (const r of worst.rows)
      routeRows.push([
        step.label,
        r.kind ?? "–",
        `\`${r.route}\``,
        String(r.calls),
        String(r.minimum),
        ratio(r.calls, r.minimum),
      ]);
  }

  const markdown = [
    "## 3b. API calls per step: the wider org (every IAM kind, and issue 45's kinds)",
    "",
    `${RESOURCES} resources of every kind, program \`test/e2e/fixtures/org-tree-program\` with its wider options:`,
    `${COUNT.groups} groups (tree of fan-out 4), ${COUNT.identities} identities (a fifth each: claimMatch exact,`,
    "claimMatch with subject pattern, audience and claims, awsIdentity, static with a secret JWKS,",
    `servicePrincipal), ${COUNT.roles} custom roles, ${COUNT.roleBindings} role bindings (${BUILT_IN_BINDINGS} to built-in roles,`,
    `${COUNT.roleBindings - BUILT_IN_BINDINGS} to the custom roles), ${COUNT.identityProviders} identity providers (secret client secret),`,
    `${COUNT.groupInvites} group invites (\`ttl\`), ${COUNT.accountAssociations} account associations, ${COUNT.repos} repos (${COUNT.repos / 2} synced from the`,
    `others, with a custom overlay), ${COUNT.tags} tags, ${COUNT.overlays} overlays, ${COUNT.overlayBindings} overlay bindings, ${COUNT.subscriptions} subscriptions and`,
    `${COUNT.externalGroupRoleMappings} external group role mappings. One stack against the emulator,`,
    `${ROUNDS} round${ROUNDS === 1 ? "" : "s"} (worst shown). The update step changes every description (groups, identities,`,
    "roles, identity providers, account associations, repos) and every synced repo's overlay, moves",
    "every built-in binding and mapping from viewer to editor (a mapping is replaced), changes every",
    "invite's email and subscription's sink, which replaces them (create, then delete), and every",
    "tag's digest (one create: the service's upsert). Minimum = one call per create, update, read and",
    "delete (a repo's create and read also read its README), none for a preview nor for an up after a",
    "refresh with nothing changed. Data-source calls (`getRole` of the built-in role the bindings use, once per",
    "program run) are counted apart. Goal: exactly 1.00. Wall times are for scale only (no no-op",
    "side: benchmark 1 measures the engine overhead).",
    "",
    table(["step", "wall time", "API calls", "minimum", "ratio", "data-source calls"], stepRows),
    "",
    exact
      ? "Every kind made exactly its minimum in every step: no create reads back, no update reads first, no refresh or delete retries, and what a refresh writes reads back as declared."
      : "Calls over the minimum are in bold below.",
    "",
    "Per kind and route (a route called but not needed shows with minimum 0):",
    "",
    table(["step", "kind", "route", "calls", "minimum", "ratio"], routeRows),
  ].join("\n");

  session.save({
    markdown,
    goals: { "minimum calls": exact },
    data: { unit: UNIT, rounds: ROUNDS, count: COUNT, samples },
  });
});
