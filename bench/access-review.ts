// Benchmark: the access review's own cost on a 3,000-resource organization with a 50-binding change.
//
// A synthetic stack (300 groups in a tree, 1,200 identities, 1,500 role bindings to built-in and
// custom roles) as `pulumi preview --json` describes it: the state, and the preview's steps (50 new
// bindings, half of them to identities created in the same change, their uids unknown and resolved
// through property dependencies). Timed: building both sides, the effective access through the group
// tree, the rows, the markdown comment and the JSON — what `pulumi-irv access-review` adds to the
// preview it runs. Reported: milliseconds per round (median), and the heap the review holds.
//
// Run: npm run bench -- access-review
// Options: --rounds=N (IRV_BENCH_ROUNDS, default 5).
import type * as Review from "../provider/review/index.ts";
import type * as Sdk from "../sdk/index.ts";
import type { KnownRole, StackResource } from "../sdk/index.ts";
import { loadDist, median, numberOption, runBench, timed } from "./support/index.ts";

// The built packages (npm run build), as the CLI runs them.
const { renderMarkdown, reviewJson, sidesOfPreview } =
  await loadDist<typeof Review>("provider/review/index.js");
const { BUILT_IN_ROLE_CAPABILITIES, orgModelOf, PREVIEW_UNKNOWN, reviewAccess, uidIndexOf } =
  await loadDist<typeof Sdk>("sdk/index.js");

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

await runBench({ pulumi: false, emulator: false }, async (session) => {
  const durations: number[] = [];
  let rows = 0;
  let chars = 0;
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  for (let r = 0; r < rounds; r++) {
    const { durationMs } = await timed(() => {
      const { before, after } = sidesOfPreview({ steps }, state);
      const uidIndex = uidIndexOf([...before, ...after]);
      const review = reviewAccess(
        orgModelOf(before, { roles, uidIndex }),
        orgModelOf(after, { roles, uidIndex }),
      );
      const md = renderMarkdown([{ stack: "prod", review }]);
      JSON.stringify(reviewJson([{ stack: "prod", review }]));
      rows = review.rows.length;
      chars = md.length;
    });
    durations.push(durationMs);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  const mib = (n: number) => (n / 2 ** 20).toFixed(0);
  const output = [
    `resources: ${state.length} in the state, ${added} bindings added`,
    `rows: ${rows}; markdown: ${chars} characters`,
    `review: median ${median(durations).toFixed(0)} ms over ${rounds} rounds (min ${Math.min(...durations).toFixed(0)}, max ${Math.max(...durations).toFixed(0)})`,
    `heap: +${mib(heapPeak - heapBefore)} MiB at peak; rss ${mib(process.memoryUsage().rss)} MiB`,
  ];
  console.log(output.join("\n"));
  session.save({
    markdown: [
      "## Access review: `bench/access-review.ts`",
      "",
      "What `pulumi-irv access-review` adds to the preview it runs, on a synthetic 3 000-resource stack",
      "(300 groups, 10 custom roles, 1 200 identities, 1 490 bindings) with a 50-binding change (25 for",
      "new identities unknown at preview): building both sides from the state and the preview's steps,",
      `effective access through the group tree, rows, the markdown comment and the JSON; ${rounds} rounds:`,
      "",
      "```",
      ...output,
      "```",
      "",
      "Not measured here: the ratio to the `pulumi preview` the review runs (goal ≤ 1.15×); section 6's",
      "refresh of 3 000 resources gives the scale of such a preview.",
    ].join("\n"),
    data: { rounds, durations, rows, chars, heapPeakBytes: heapPeak - heapBefore },
  });
});
