// Benchmark 5: adopting an existing organization with `pulumi-irv import-org`.
//
// Two organizations of N objects each are made through the API, side by side under one emulator:
//   today's    every writable IAM kind: N/10 groups in a tree of fanout 4; in each group a custom
//              role, an identity provider and account associations (3N/10); 3N/10 identities spread
//              over the groups, cycling through every identity variant; one binding per identity,
//              to viewer or to its group's custom role (3N/10); and an invite in every fourth group
//              (not generated: listed in the README, not counted in N);
//   registry   the same size with the kinds of issue 45: R repos (default N/10) of their own, each
//              with 2 tags and an overlay binding (4R), one overlay per 10 repos, and today's IAM
//              shape for the rest.
// The emulator adds 20 ms to every request, then side by side:
//   import-org         of each organization: every kind below its root, pages fetched concurrently
//                      (8 in flight), and the program rendered; three rounds, alternating which
//                      goes first; time and requests, registry ÷ today;
//   cursor read        today's lists read page after page through nextPageToken (the floor a
//                      sequential reader pays), for comparison with import-org of today's org;
//   first up           `pulumi up` of each generated program: every resource imported (reads only),
//                      once each; time and requests, registry ÷ today.
// Goal: import-org well under the cursor read; no first up makes an API write.
// The first ups run with PULUMI_SKIP_CHECKPOINTS=true, as the README's "Large organizations" advises:
// the file backend otherwise rewrites the whole state after every step, a cost in the square of the
// stack's size that is the backend's, not the provider's (see bench/scale.ts).
//
// Run: npm run bench -- import-org
// Only when named: it seeds two organizations of 2,000 objects and imports them in a first up, minutes
// Options: --objects=N (IRV_BENCH_OBJECTS, default 2000), --repos=R (IRV_BENCH_REPOS, default N/10),
// --latency=MS (IRV_BENCH_LATENCY, default 20).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type * as Cli from "../provider/cli/index.ts";
import type * as Sdk from "../sdk/index.ts";
import {
  GENERATED_PER_GROUP,
  identityVariant,
  publicJwks,
  secretConfigKeys,
  seedGroupKinds,
  seedRepo,
} from "../test/e2e/support/adoptable-org.ts";
import type { Measurement } from "./support/index.ts";
import {
  loadDist,
  medianOf,
  ms,
  numberOption,
  OUT_DIR,
  progress,
  runBench,
  table,
  timed,
  timeSteps,
  times,
} from "./support/index.ts";

const OBJECTS = numberOption("objects", "IRV_BENCH_OBJECTS", 2000);
const LATENCY = numberOption("latency", "IRV_BENCH_LATENCY", 20);
const REPOS = numberOption("repos", "IRV_BENCH_REPOS", Math.round(OBJECTS / 10));
const REPOS_PER_OVERLAY = 10;
// A repo, its 2 tags and its overlay binding.
const PER_REPO = 4;
const OVERLAYS = Math.ceil(REPOS / REPOS_PER_OVERLAY);

// Today's shape, `objects` of it, below `org`: returns the groups made.
async function seed(client: Sdk.IrvClient, org: string, viewer: string, objects: number): Promise<string[]> {
  const groups = Math.max(1, Math.round(objects / 10));
  const identities = Math.floor((objects - groups * (1 + GENERATED_PER_GROUP)) / 2);
  const jwks = await publicJwks();
  const uids: string[] = [];
  const roles: string[] = [];
  while (uids.length < groups) {
    // Group n's parent is group floor((n - 1) / 4): a batch only holds groups whose parent exists.
    const start = uids.length;
    const end = Math.min(groups, start + 16, 4 * start + 1);
    const made = await Promise.all(
      Array.from({ length: end - start }, (_, k) => start + k).map(async (n) => {
        const g = await client.groups.create(n === 0 ? org : (uids[Math.floor((n - 1) / 4)] as string), {
          name: `g ${n}`,
        });
        return { uid: g.uid, role: await seedGroupKinds(client, g.uid, n, viewer) };
      }),
    );
    uids.push(...made.map((g) => g.uid));
    roles.push(...made.map((g) => g.role));
  }
  for (let j = 0; j < identities; j += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, identities - j) }, async (_, k) => {
        const n = j + k;
        const group = uids[n % uids.length] as string;
        const id = await client.identities.create(group, {
          name: `id.${n}`,
          ...identityVariant(n, `repo:acme/${n}`, jwks),
        });
        const role = n % 2 === 0 ? viewer : (roles[n % uids.length] as string);
        await client.roleBindings.create(group, { identityUid: id.uid, roleUid: role });
      }),
    );
  }
  return uids;
}

// The registry kinds in `groups`: an overlay per REPOS_PER_OVERLAY repos, each repo with 2 tags and
// a binding of its overlay.
async function seedRegistry(client: Sdk.IrvClient, groups: readonly string[]): Promise<void> {
  const at = (n: number) => groups[n % groups.length] as string;
  const overlays: string[] = [];
  for (let o = 0; o < OVERLAYS; o++)
    overlays.push(
      (
        await client.overlays.create(at(o), {
          name: `tools-${o}`,
          config: { contents: { packages: ["curl", `pkg-${o}`] } },
        })
      ).uid,
    );
  for (let j = 0; j < REPOS; j += 16)
    await Promise.all(
      Array.from({ length: Math.min(16, REPOS - j) }, (_, k) => {
        const n = j + k;
        const o = Math.floor(n / REPOS_PER_OVERLAY);
        // In its overlay's group: a binding names an overlay of the repo's organization.
        return seedRepo(client, at(o), `repo-${n}`, 2, overlays[o]);
      }),
    );
}

await runBench({}, async (session) => {
  const { emu } = session;
  const client = await session.client();
  const { importOrg } = await loadDist<typeof Cli>("provider/cli/index.js");
  // Inside the repository, so the generated programs resolve pulumi-irv and typescript.
  mkdirSync(OUT_DIR, { recursive: true });
  const work = mkdtempSync(path.join(OUT_DIR, "import-org-"));
  const SIDES = ["today", "registry"] as const;
  type Side = (typeof SIDES)[number];
  const out: Record<Side, string> = {
    today: path.join(work, "today"),
    registry: path.join(work, "registry"),
  };
  try {
    const viewer = (await client.roles.list({ name: "viewer" })).items[0]?.uid as string;
    const roots = {} as Record<Side, string>;
    for (const side of SIDES) roots[side] = (await client.groups.create(emu.orgUid, { name: side })).uid;
    progress(`seeding two organizations of ${OBJECTS} objects (${REPOS} repos in the second)…`);
    await seed(client, roots.today, viewer, OBJECTS);
    await seedRegistry(
      client,
      await seed(client, roots.registry, viewer, OBJECTS - REPOS * PER_REPO - OVERLAYS),
    );
    emu.setFaults(`latency=${LATENCY}`);

    // Three rounds each, alternating which goes first; the medians are compared.
    const reports = {} as Record<Side, Awaited<ReturnType<typeof importOrg>>>;
    const reads: Record<Side | "cursor", () => Promise<void>> = {
      today: async () => {
        reports.today = await importOrg({ root: roots.today, out: out.today, client, progress: () => {} });
      },
      registry: async () => {
        reports.registry = await importOrg({
          root: roots.registry,
          out: out.registry,
          client,
          progress: () => {},
        });
      },
      cursor: async () => {
        for (const kind of [
          client.groups,
          client.roles,
          client.identities,
          client.identityProviders,
          client.accountAssociations,
          client.roleBindings,
          client.groupInvites,
        ] as const)
          await kind.collect({ descendantsOf: roots.today, pageSize: 200 });
      },
    };
    await client.roles.list({ pageSize: 1 }); // warm the connection pool for every side
    const samples = await timeSteps({
      rounds: 3,
      steps: [{ key: "read" }],
      sides: ["today", "registry", "cursor"] as const,
      run: (_step, side) => session.measure(() => timed(reads[side])),
    });
    const read = (side: Side | "cursor") => samples.read?.[side] ?? [];
    const readMs = (side: Side | "cursor") => medianOf(read(side), (r) => r.durationMs);
    const readCalls = (side: Side) => medianOf(read(side), (r) => r.calls.total);
    const total = (side: Side) => Object.values(reports[side]?.resources ?? {}).reduce((a, b) => a + b, 0);

    // One first up each, today's first; no destroy at the end: the emulator (in memory) goes with
    // everything it holds.
    const ups = {} as Record<Side, Measurement>;
    for (const side of SIDES) {
      const stack = await session.stack({
        program: out[side],
        stackName: side,
        timeoutMs: 3_600_000,
        env: { PULUMI_SKIP_CHECKPOINTS: "true" },
        destroy: false,
        // The identity providers' client secrets the generated program requires.
        config: Object.fromEntries(
          secretConfigKeys(readFileSync(path.join(out[side], "index.ts"), "utf8")).map((k) => [
            k,
            { value: `bench-${k}`, secret: true },
          ]),
        ),
      });
      progress(`first up of the ${side} program (${total(side)} resources)…`);
      ups[side] = await session.measure(() => stack.up());
    }
    const writes = (side: Side) =>
      Object.entries(ups[side].calls.byRoute)
        .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
        .reduce((n, [, c]) => n + c, 0);
    emu.setFaults("none");
    const counts = (side: Side) =>
      Object.entries(reports[side]?.resources ?? {})
        .map(([k, n]) => `${n} ${k}`)
        .join(", ");
    const ratio = (a: number, b: number) => times(a / b);
    session.save({
      goals: {
        "no writes": writes("today") === 0 && writes("registry") === 0,
        "import faster than a cursor walk": readMs("today") < readMs("cursor"),
      },
      data: {
        objects: { today: total("today"), registry: total("registry") },
        repos: REPOS,
        latencyMs: LATENCY,
        importMs: { today: readMs("today"), registry: readMs("registry") },
        importRequests: { today: readCalls("today"), registry: readCalls("registry") },
        cursorMs: readMs("cursor"),
        upMs: { today: ups.today.durationMs, registry: ups.registry.durationMs },
        upRequests: { today: ups.today.calls.total, registry: ups.registry.calls.total },
        writes: { today: writes("today"), registry: writes("registry") },
        loadAverage: ups.registry.loadAverage,
      },
      markdown: [
        "## import-org",
        "",
        `Two organizations side by side, ${LATENCY} ms latency per request. Today's: ${total("today")} objects (${counts("today")}). With the registry kinds (issue 45): ${total("registry")} objects (${counts("registry")}), ${REPOS} repos each with 2 tags and an overlay binding.`,
        "",
        table(
          ["step", "today's org", "with the registry kinds", "registry ÷ today"],
          [
            [
              "import-org: time (pages 8 in flight, + render; median of 3)",
              ms(readMs("today")),
              ms(readMs("registry")),
              ratio(readMs("registry"), readMs("today")),
            ],
            [
              "import-org: requests",
              String(readCalls("today")),
              String(readCalls("registry")),
              ratio(readCalls("registry"), readCalls("today")),
            ],
            [
              "first up of the generated program: time (PULUMI_SKIP_CHECKPOINTS; once each)",
              ms(ups.today.durationMs),
              ms(ups.registry.durationMs),
              ratio(ups.registry.durationMs, ups.today.durationMs),
            ],
            [
              `first up: requests (API writes: ${writes("today")} and ${writes("registry")})`,
              String(ups.today.calls.total),
              String(ups.registry.calls.total),
              ratio(ups.registry.calls.total, ups.today.calls.total),
            ],
          ],
        ),
        "",
        `Cursor read of today's lists (page after page, the floor a sequential reader pays): ${ms(readMs("cursor"))}; import-org of today's org is ${ratio(readMs("today"), readMs("cursor"))} of it.`,
      ].join("\n"),
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
