// Benchmark 5: adopting an existing organization with `pulumi-irv import-org`.
//
// An org of N objects of every writable IAM kind is made through the API: N/10 groups in a tree of
// fanout 4; in each group a custom role, an identity provider and account associations (3N/10);
// 3N/10 identities spread over the groups, cycling through every identity variant; one binding per
// identity, to viewer or to its group's custom role (3N/10); and an invite in every fourth group
// (not generated: listed in the README, not counted in N). The emulator adds 20 ms to every
// request, then side by side:
//   import-org         reads every kind below the root, pages fetched concurrently (8 in flight),
//                      and renders the program;
//   cursor read        the same lists read page after page through nextPageToken (the floor a
//                      sequential reader pays), for comparison;
//   first up           `pulumi up` of the generated program: every resource imported (reads only).
// Goal: import-org well under the cursor read; the first up makes no API write.
// The first up runs with PULUMI_SKIP_CHECKPOINTS=true, as the README's "Large organizations" advises:
// the file backend otherwise rewrites the whole state after every step, a cost in the square of the
// stack's size that is the backend's, not the provider's (see bench/scale.ts).
//
// Run: npm run bench -- import-org
// Only when named: it seeds 2,000 objects and imports them in a first up, minutes
// Options: --objects=N (IRV_BENCH_OBJECTS, default 2000), --latency=MS (IRV_BENCH_LATENCY, default 20).
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
} from "../test/e2e/support/adoptable-org.ts";
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

async function seed(client: Sdk.IrvClient, org: string, viewer: string): Promise<void> {
  const groups = Math.max(1, Math.round(OBJECTS / 10));
  const identities = Math.floor((OBJECTS - groups * (1 + GENERATED_PER_GROUP)) / 2);
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
}

await runBench({}, async (session) => {
  const { emu } = session;
  const client = await session.client();
  const { importOrg } = await loadDist<typeof Cli>("provider/cli/index.js");
  // Inside the repository, so the generated program resolves pulumi-irv and typescript.
  mkdirSync(OUT_DIR, { recursive: true });
  const out = mkdtempSync(path.join(OUT_DIR, "import-org-"));
  try {
    const viewer = (await client.roles.list({ name: "viewer" })).items[0]?.uid as string;
    progress(`seeding ${OBJECTS} objects…`);
    await seed(client, emu.orgUid, viewer);
    emu.setFaults(`latency=${LATENCY}`);

    // Three rounds each, alternating which goes first; the medians are compared.
    let report: Awaited<ReturnType<typeof importOrg>> | undefined;
    const reads = {
      import: async () => {
        report = await importOrg({ root: emu.orgUid, out, client, progress: () => {} });
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
          await kind.collect({ descendantsOf: emu.orgUid, pageSize: 200 });
      },
    };
    await client.roles.list({ pageSize: 1 }); // warm the connection pool for both sides
    const samples = await timeSteps({
      rounds: 3,
      steps: [{ key: "read" }],
      sides: ["import", "cursor"] as const,
      run: (_step, side) => timed(reads[side]),
    });
    const importMs = medianOf(samples.read?.import ?? [], (r) => r.durationMs);
    const cursorMs = medianOf(samples.read?.cursor ?? [], (r) => r.durationMs);
    const total = Object.values(report?.resources ?? {}).reduce((a, b) => a + b, 0);

    // No destroy at the end: the emulator (in memory) goes with everything it holds.
    const stack = await session.stack({
      program: out,
      timeoutMs: 3_600_000,
      env: { PULUMI_SKIP_CHECKPOINTS: "true" },
      destroy: false,
      // The identity providers' client secrets the generated program requires.
      config: Object.fromEntries(
        secretConfigKeys(readFileSync(path.join(out, "index.ts"), "utf8")).map((k) => [
          k,
          { value: `bench-${k}`, secret: true },
        ]),
      ),
    });
    progress(`first up of the generated program (${total} resources)…`);
    const up = await session.measure(() => stack.up());
    const upMs = up.durationMs;
    const writes = Object.entries(up.calls.byRoute)
      .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
      .reduce((n, [, c]) => n + c, 0);
    emu.setFaults("none");
    session.save({
      goals: { "no writes": writes === 0, "import faster than a cursor walk": importMs < cursorMs },
      data: { objects: total, latencyMs: LATENCY, importMs, cursorMs, upMs, writes },
      markdown: [
        "## import-org",
        "",
        `${total} objects (${Object.entries(report?.resources ?? {})
          .map(([k, n]) => `${n} ${k}`)
          .join(", ")}), ${LATENCY} ms latency per request.`,
        "",
        table(
          ["step", "time", "vs cursor read"],
          [
            ["import-org (pages 8 in flight, + render)", ms(importMs), times(importMs / cursorMs)],
            ["cursor read of the same lists", ms(cursorMs), "1.00×"],
            [
              `first up of the generated program (${writes} API writes; PULUMI_SKIP_CHECKPOINTS)`,
              ms(upMs),
              "–",
            ],
          ],
        ),
      ].join("\n"),
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
