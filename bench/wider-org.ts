// Benchmark 3b: API calls per step for the wider org, every IAM kind.
//
// The program of benchmark 1 (test/e2e/fixtures/org-tree-program) with its wider options on: groups
// in a tree, identities of every variant (claimMatch exact and with patterns, awsIdentity, static,
// servicePrincipal), bindings to built-in roles and to custom roles, custom roles, identity
// providers, group invites and account associations. One stack against the in-process emulator
// runs preview (create) → up (create) → preview (no changes) → preview and up of an update of every
// updatable kind in place (and a replace of every invite) → refresh → up (no changes) → destroy,
// and the emulator's counters are compared, per kind and route, with the minimum: one call per
// create, update, read and delete, none for a preview; an invite's replace is its create plus its
// delete. Data-source calls (`getRole`, one list
// call per distinct built-in role each time the program runs) are counted apart. Goal: exactly 1.00.
//
// Run: npm run bench -- wider   (or node --import ./bench/support/register-ts.mjs bench/wider-org.ts)
// Options: --unit=N (IRV_BENCH_WIDER_UNIT, default 30: 10 × N resources), --rounds=N (IRV_BENCH_ROUNDS, default 1).
import type * as Emulator from "../emulator/index.ts";
import { ensurePulumiCli } from "../scripts/pulumi-cli.ts";
import type { OperationResult, TestStack } from "../test/e2e/harness/index.ts";
import { createStack, fixtureDir, summary } from "../test/e2e/harness/index.ts";
import {
  loadDist,
  machineInfo,
  median,
  ms,
  numberOption,
  progress,
  saveResult,
  table,
  times,
} from "./support/bench-kit.ts";

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
] as const;
type Kind = (typeof KINDS)[number];

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
};
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
    minimum: { POST: each((k) => COUNT[k]) },
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
    label: "up (update every updatable kind, replace every invite)",
    minimum: {
      // Descriptions of groups, identities, roles, identity providers and account associations; the
      // role of every binding to a built-in role; invites are never updated, so each is replaced.
      PATCH: each((k) => (k === "roleBindings" ? BUILT_IN_BINDINGS : k === "groupInvites" ? 0 : COUNT[k])),
      POST: { groupInvites: COUNT.groupInvites },
      DELETE: { groupInvites: COUNT.groupInvites },
    },
    runsProgram: true,
    // The config changed in the preview step before.
    run: (s) => s.up(),
  },
  {
    key: "refresh",
    label: `refresh (read ${RESOURCES})`,
    minimum: { GET: each((k) => COUNT[k]) },
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

const DATA_SOURCE_ROUTE = "GET /iam/v2beta1/roles";
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

const routeOf = (method: string, kind: Kind) => `${method} /iam/v2beta1/${kind}/*`;

/** Every route the step called or should have called, with its calls and minimum. */
function compare(step: Step, byRoute: Readonly<Record<string, number>>): RouteCount[] {
  const rows = new Map<string, RouteCount>();
  for (const [method, perKind] of Object.entries(step.minimum))
    for (const [kind, minimum] of Object.entries(perKind ?? {}) as [Kind, number][])
      rows.set(routeOf(method, kind), { route: routeOf(method, kind), kind, method, calls: 0, minimum });
  for (const [route, calls] of Object.entries(byRoute)) {
    if (route === DATA_SOURCE_ROUTE) continue;
    const [method = "", path = ""] = route.split(" ");
    const kind = KINDS.find((k) => path.startsWith(`/iam/v2beta1/${k}/`) || path === `/iam/v2beta1/${k}`);
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

interface StepRun {
  round: number;
  durationMs: number;
  byRoute: Record<string, number>;
  dataSourceCalls: number;
  rows: RouteCount[];
  changes: Record<string, number>;
}

async function main(): Promise<void> {
  const cli = await ensurePulumiCli({ log: progress });
  const machine = machineInfo(cli.binDir);
  const { startEmulator } = await loadDist<typeof Emulator>("emulator/index.js");
  const emu = await startEmulator({ port: 0 });
  const stack = await createStack({
    program: fixtureDir("org-tree-program"),
    binDir: cli.binDir,
    stackName: "wider",
    timeoutMs: 900_000,
    config: {
      "irv:baseUrl": emu.baseUrl,
      "irv:token": { value: emu.adminToken, secret: true },
      orgUid: emu.orgUid,
      prefix: "w",
      groups: String(COUNT.groups),
      identities: String(COUNT.identities),
      bindings: String(BUILT_IN_BINDINGS),
      roles: "viewer,editor",
      variants: "true",
      customRoles: String(COUNT.roles),
      identityProviders: String(COUNT.identityProviders),
      invites: String(COUNT.groupInvites),
      accountAssociations: String(COUNT.accountAssociations),
    },
  });

  const runs: Record<string, StepRun[]> = Object.fromEntries(STEPS.map((s) => [s.key, []]));
  progress(
    `wider org: ${RESOURCES} resources of every kind, ${ROUNDS} rounds (load average ${machine.loadAverage})`,
  );
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const step of STEPS) {
        emu.resetStats();
        const result = await step.run(stack, round);
        const byRoute = emu.stats().requests;
        const changes = summary(result.events)?.resourceChanges ?? {};
        runs[step.key]?.push({
          round,
          durationMs: result.durationMs,
          byRoute,
          dataSourceCalls: byRoute[DATA_SOURCE_ROUTE] ?? 0,
          rows: compare(step, byRoute),
          changes,
        });
        progress(`round ${round} ${step.key}: ${ms(result.durationMs)} ${JSON.stringify(changes)}`);
      }
    }
  } finally {
    await stack.dispose().catch(() => undefined);
    await emu.close();
  }

  const total = (rows: readonly RouteCount[], key: "calls" | "minimum") =>
    rows.reduce((n, r) => n + r[key], 0);
  const stepRows: string[][] = [];
  const routeRows: string[][] = [];
  let exact = true;
  for (const step of STEPS) {
    const all = runs[step.key] ?? [];
    // The worst round: the most calls above the minimum.
    const worst = all.reduce(
      (a, b) => (total(b.rows, "calls") > total(a.rows, "calls") ? b : a),
      all[0] as StepRun,
    );
    const dsExpected = step.runsProgram ? DATA_SOURCE_MINIMUM : 0;
    exact &&= all.every(
      (r) => r.rows.every((x) => x.calls === x.minimum) && r.dataSourceCalls === dsExpected,
    );
    const calls = total(worst.rows, "calls");
    const minimum = total(worst.rows, "minimum");
    stepRows.push([
      step.label,
      ms(median(all.map((r) => r.durationMs))),
      String(calls),
      String(minimum),
      ratio(calls, minimum),
      `${worst.dataSourceCalls} (minimum ${dsExpected})`,
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
    "## 3b. API calls per step: the wider org (every IAM kind)",
    "",
    `${RESOURCES} resources of every kind, program \`test/e2e/fixtures/org-tree-program\` with its wider options:`,
    `${COUNT.groups} groups (tree of fan-out 4), ${COUNT.identities} identities (a fifth each: claimMatch exact,`,
    "claimMatch with subject pattern, audience and claims, awsIdentity, static with a secret JWKS,",
    `servicePrincipal), ${COUNT.roles} custom roles, ${COUNT.roleBindings} role bindings (${BUILT_IN_BINDINGS} to built-in roles,`,
    `${COUNT.roleBindings - BUILT_IN_BINDINGS} to the custom roles), ${COUNT.identityProviders} identity providers (secret client secret),`,
    `${COUNT.groupInvites} group invites (\`ttl\`) and ${COUNT.accountAssociations} account associations. One stack against the emulator,`,
    `${ROUNDS} round${ROUNDS === 1 ? "" : "s"} (worst shown). The update step changes every description (groups, identities,`,
    "roles, identity providers, account associations), moves every built-in binding from viewer to",
    "editor and changes every invite's email, which replaces it (create, then delete). Minimum = one",
    "call per create, update, read and delete, none for a preview nor for an up after a refresh with",
    "nothing changed. Data-source calls (`getRole` of the built-in role the bindings use, once per",
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

  saveResult({
    name: "wider-org",
    markdown,
    machine,
    goalsMet: exact,
    data: { unit: UNIT, rounds: ROUNDS, count: COUNT, runs },
  });
}

await main();
