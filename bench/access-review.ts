// Benchmark: the access review's own cost on a 3,000-resource organization with a 50-binding change.
//
// A synthetic stack (300 groups in a tree, 1,200 identities, 1,500 role bindings to built-in and
// custom roles) as `pulumi preview --json` describes it: the state, and the preview's steps (50 new
// bindings, half of them to identities created in the same change, their uids unknown and resolved
// through property dependencies). Timed: building both sides, the effective access through the group
// tree, the rows, the markdown comment and the JSON — what `pulumi-irv access-review` adds to the
// preview it runs. Reported: milliseconds per round (median), and the heap the review holds.
//
// With the in-process emulator seeded with the same organization (300 groups, 1 200 identities,
// 1 500 bindings), `--live`'s read is timed and its list requests counted, and the review with the
// live bindings timed beside it. The heap: the review as it is (each identity evaluated where it is
// bound) beside the evaluation of every identity at every group (what the review did before).
//
// Run: npm run bench -- access-review
// Options: --rounds=N (IRV_BENCH_ROUNDS, default 5).
import type * as Review from "../review/index.ts";
import type { KnownRole, StackResource } from "../review/index.ts";
import type * as Sdk from "../sdk/index.ts";
import { loadDist, median, numberOption, runBench, timed } from "./support/index.ts";

// The built packages (npm run build), as the CLI runs them.
const {
  effectiveAccess,
  liveBindings,
  orgModelOf,
  PREVIEW_UNKNOWN,
  renderMarkdown,
  reviewAccess,
  reviewJson,
  sidesOfPreview,
  uidIndexOf,
} = await loadDist<typeof Review>("review/index.js");
const { BUILT_IN_ROLE_CAPABILITIES, CAPABILITIES } = await loadDist<typeof Sdk>("sdk/index.js");

const rounds = numberOption("rounds", "IRV_BENCH_ROUNDS", 5);
const ORG = "a".repeat(40);
const hex = (n: number) => n.toString(16).padStart(16, "0");
const T = "pulumi-nodejs:dynamic/irv";
const urn = (cls: string, name: string) => `urn:pulumi:prod::org::${T}:${cls}::${name}`;
const roles: KnownRole[] = Object.entries(BUILT_IN_ROLE_CAPABILITIES).map(([name, caps], i) => ({
  uid: String(i + 1).repeat(40),
  name,
  capabilities: caps,
}));

const state: StackResource[] = [];
const groups: string[] = [];
for (let i = 0; i < 300; i++) {
  const parent = i < 10 ? ORG : groups[Math.floor(i / 3) - 1]!;
  const uid = `${parent}/${hex(i + 1)}`;
  groups.push(uid);
  state.push({
    urn: urn("Group", `g${i}`),
    type: `${T}:Group`,
    props: { uid, parentUid: parent, name: `g${i}` },
  });
}
for (let i = 0; i < 10; i++) {
  const uid = "9".repeat(39) + i;
  state.push({
    urn: urn("Role", `r${i}`),
    type: `${T}:Role`,
    props: {
      uid,
      parentUid: groups[i],
      name: `r${i}`,
      capabilities: ["groups.list", "role_bindings.create"],
    },
  });
}
const identities: string[] = [];
for (let i = 0; i < 1200; i++) {
  const group = groups[i % 300]!;
  const uid = `${group}/${hex(10_000 + i)}`;
  identities.push(uid);
  state.push({
    urn: urn("Identity", `i${i}`),
    type: `${T}:Identity`,
    props: {
      uid,
      groupUid: group,
      name: `i${i}`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: `repo:acme/r${i}:ref:refs/heads/main`,
      },
    },
  });
}
for (let i = 0; i < 1490; i++) {
  const id = identities[i % 1200]!;
  const group = id.slice(0, id.lastIndexOf("/"));
  const role = i % 7 === 0 ? "9".repeat(39) + (i % 10) : roles[i % 3]!.uid;
  state.push({
    urn: urn("RoleBinding", `b${i}`),
    type: `${T}:RoleBinding`,
    props: { uid: `${group}/${hex(50_000 + i)}`, groupUid: group, identityUid: id, roleUid: role },
  });
}
// The change: 25 bindings for existing identities, 25 new identities each with a binding.
const steps: {
  op: string;
  urn: string;
  newState: {
    urn: string;
    type: string;
    inputs: Record<string, unknown>;
    propertyDependencies?: Record<string, string[]>;
  };
}[] = [];
for (let i = 0; i < 25; i++) {
  const id = identities[i * 40]!;
  steps.push({
    op: "create",
    urn: urn("RoleBinding", `new-b${i}`),
    newState: {
      urn: urn("RoleBinding", `new-b${i}`),
      type: `${T}:RoleBinding`,
      inputs: { groupUid: id.slice(0, id.lastIndexOf("/")), identityUid: id, roleUid: roles[1]!.uid },
    },
  });
  const group = groups[i * 11]!;
  steps.push({
    op: "create",
    urn: urn("Identity", `new-i${i}`),
    newState: {
      urn: urn("Identity", `new-i${i}`),
      type: `${T}:Identity`,
      inputs: {
        groupUid: group,
        name: `new-i${i}`,
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: `repo:acme/n${i}:ref:refs/heads/main`,
        },
      },
    },
  });
  steps.push({
    op: "create",
    urn: urn("RoleBinding", `new-nb${i}`),
    newState: {
      urn: urn("RoleBinding", `new-nb${i}`),
      type: `${T}:RoleBinding`,
      inputs: { groupUid: group, identityUid: PREVIEW_UNKNOWN, roleUid: roles[2]!.uid },
      propertyDependencies: { identityUid: [urn("Identity", `new-i${i}`)] },
    },
  });
}
const added = steps.filter((st) => st.urn.includes("RoleBinding")).length;

// The same organization in the emulator, for --live: nested groups, identities bound in their group.
function fixtureGroups(parentIndex: number): object[] {
  return groups
    .map((_, i) => i)
    .filter((i) => (parentIndex < 0 ? i < 10 : i >= 10 && Math.floor(i / 3) - 1 === parentIndex))
    .map((i) => ({
      name: `g${i}`,
      identities: Array.from({ length: 4 }, (_, k) => ({
        name: `i${i}-${k}`,
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: `repo:acme/r${i}-${k}:ref:x`,
        },
        roles: k < 1 ? ["viewer", "editor"] : ["viewer"],
      })),
      groups: fixtureGroups(i),
    }));
}

const mib = (n: number) => (n / 2 ** 20).toFixed(0);

// Heap held by the effective access of both sides, every identity evaluated at `scope` groups.
function heapOf(everywhere: boolean): number {
  const { before, after } = sidesOfPreview({ steps }, state);
  const uidIndex = uidIndexOf([...before, ...after]);
  const models = [orgModelOf(before, { roles, uidIndex }), orgModelOf(after, { roles, uidIndex })];
  globalThis.gc?.();
  const start = process.memoryUsage().heapUsed;
  const held = models.map((m) => {
    if (!everywhere) return effectiveAccess(m, CAPABILITIES);
    const all = new Set(m.groups.keys());
    return effectiveAccess(m, CAPABILITIES, new Map([...m.identities.keys()].map((i) => [i, all])));
  });
  globalThis.gc?.();
  const used = process.memoryUsage().heapUsed - start;
  if (held.length !== 2) throw new Error("unreachable");
  return used;
}

await runBench({ pulumi: false }, async (session) => {
  const durations: number[] = [];
  const liveDurations: number[] = [];
  let rows = 0;
  let chars = 0;
  const emu = session.emu;
  emu.seed({ groups: fixtureGroups(-1) } as Parameters<typeof emu.seed>[0]);
  const client = await session.client();
  const tops = (await client.groups.collect({ childrenOf: emu.orgUid })).map((g) => g.uid);
  const t0 = performance.now();
  const live = await liveBindings(client, { subtrees: tops });
  const liveReadMs = performance.now() - t0;
  // The emulator's org uid stands in for the synthetic one: the live bindings are of its groups.
  const review = (extra: readonly StackResource[]) => {
    const { before, after } = sidesOfPreview({ steps }, state);
    const b = [...before, ...extra];
    const a = [...after, ...extra];
    const uidIndex = uidIndexOf([...b, ...a]);
    const result = reviewAccess(orgModelOf(b, { roles, uidIndex }), orgModelOf(a, { roles, uidIndex }));
    const md = renderMarkdown([{ stack: "prod", review: result }]);
    JSON.stringify(reviewJson([{ stack: "prod", review: result }]));
    rows = extra.length === 0 ? result.rows.length : rows;
    chars = extra.length === 0 ? md.length : chars;
  };
  for (let r = 0; r < rounds; r++) {
    durations.push((await timed(() => review([]))).durationMs);
    liveDurations.push((await timed(() => review(live.resources))).durationMs);
  }
  const heapNow = heapOf(false);
  const heapEverywhere = heapOf(true);
  const output = [
    `resources: ${state.length} in the state, ${added} bindings added`,
    `rows: ${rows}; markdown: ${chars} characters`,
    `review: median ${median(durations).toFixed(0)} ms over ${rounds} rounds (min ${Math.min(...durations).toFixed(0)}, max ${Math.max(...durations).toFixed(0)})`,
    `--live read: ${live.resources.length} bindings in ${live.subtrees.length} subtrees, ${live.requests} list requests, ${liveReadMs.toFixed(0)} ms`,
    `review with the live bindings: median ${median(liveDurations).toFixed(0)} ms (${(median(liveDurations) / median(durations)).toFixed(2)}× the review without)`,
    `effective access held (both sides): ${mib(heapNow)} MiB evaluated where bound, ${mib(heapEverywhere)} MiB at every group (before this change)`,
    `rss ${mib(process.memoryUsage().rss)} MiB`,
  ];
  console.log(output.join("\n"));
  session.save({
    markdown: [
      "## Access review: `bench/access-review.ts`",
      "",
      "What `pulumi-irv access-review` adds to the preview it runs, on a synthetic 3 000-resource stack",
      "(300 groups, 10 custom roles, 1 200 identities, 1 490 bindings) with a 50-binding change (25 for",
      "new identities unknown at preview): building both sides from the state and the preview's steps,",
      `effective access through the group tree, rows, the markdown comment and the JSON; ${rounds} rounds.`,
      "`--live`: the same tree seeded in the in-process emulator, read as the review reads it.",
      "",
      "```",
      ...output,
      "```",
      "",
      "The ratio to the `pulumi preview` the review runs (goal ≤ 1.15×), on a real stack: `bench/access-review-preview.ts`.",
    ].join("\n"),
    data: {
      rounds,
      durations,
      liveDurations,
      rows,
      chars,
      liveRequests: live.requests,
      liveBindings: live.resources.length,
      heapWhereBoundBytes: heapNow,
      heapEverywhereBytes: heapEverywhere,
    },
  });
});
