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
// Options: --objects=N (IRV_BENCH_OBJECTS, default 2000), --latency=MS (IRV_BENCH_LATENCY, default 20).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type * as Emulator from "../emulator/index.ts";
import type * as Cli from "../provider/cli/index.ts";
import { ensurePulumiCli } from "../scripts/pulumi-cli.ts";
import type * as Sdk from "../sdk/index.ts";
import { createStack } from "../test/e2e/harness/index.ts";
import {
  GENERATED_PER_GROUP,
  identityVariant,
  publicJwks,
  secretConfigKeys,
  seedGroupKinds,
} from "../test/e2e/support/adoptable-org.ts";
import {
  loadDist,
  machineInfo,
  median,
  ms,
  numberOption,
  progress,
  ROOT,
  saveResult,
  table,
  times,
} from "./support/bench-kit.ts";

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

async function main(): Promise<void> {
  const cli = await ensurePulumiCli({ log: progress });
  const machine = machineInfo(cli.binDir);
  const { startEmulator } = await loadDist<typeof Emulator>("emulator/index.js");
  const { IrvClient } = await loadDist<typeof Sdk>("sdk/index.js");
  const { importOrg } = await loadDist<typeof Cli>("provider/cli/index.js");
  const emu = await startEmulator({ port: 0 });
  const client = new IrvClient({ baseUrl: emu.baseUrl, token: emu.adminToken });
  // Inside the repository, so the generated program resolves pulumi-irv and typescript.
  const parent = path.join(ROOT, "bench", "out");
  mkdirSync(parent, { recursive: true });
  const out = mkdtempSync(path.join(parent, "import-org-"));
  try {
    const viewer = (await client.roles.list({ name: "viewer" })).items[0]?.uid as string;
    progress(`seeding ${OBJECTS} objects…`);
    await seed(client, emu.orgUid, viewer);
    emu.setFaults(`latency=${LATENCY}`);

    // Three rounds each, alternating which goes first; the medians are compared.
    const importRuns: number[] = [];
    const cursorRuns: number[] = [];
    let report: Awaited<ReturnType<typeof importOrg>> | undefined;
    const timeImport = async () => {
      const started = performance.now();
      report = await importOrg({ root: emu.orgUid, out, client, progress: () => {} });
      importRuns.push(performance.now() - started);
    };
    const timeCursor = async () => {
      const started = performance.now();
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
      cursorRuns.push(performance.now() - started);
    };
    await client.roles.list({ pageSize: 1 }); // warm the connection pool for both sides
    for (let round = 0; round < 3; round++)
      for (const step of round % 2 === 0 ? [timeImport, timeCursor] : [timeCursor, timeImport]) await step();
    const importMs = median(importRuns);
    const cursorMs = median(cursorRuns);
    const total = Object.values(report?.resources ?? {}).reduce((a, b) => a + b, 0);
    let started: number;

    const stack = await createStack({
      program: out,
      binDir: cli.binDir,
      timeoutMs: 3_600_000,
      env: { PULUMI_SKIP_CHECKPOINTS: "true" },
      config: {
        "irv:baseUrl": emu.baseUrl,
        "irv:token": { value: emu.adminToken, secret: true },
        // The identity providers' client secrets the generated program requires.
        ...Object.fromEntries(
          secretConfigKeys(readFileSync(path.join(out, "index.ts"), "utf8")).map((k) => [
            k,
            { value: `bench-${k}`, secret: true },
          ]),
        ),
      },
    });
    try {
      progress(`first up of the generated program (${total} resources)…`);
      const before = emu.stats().requests;
      started = performance.now();
      await stack.up();
      const upMs = performance.now() - started;
      const after = emu.stats().requests;
      const writes = Object.entries(after)
        .filter(([route]) => /^(POST|PATCH|DELETE) /.test(route))
        .reduce((n, [route, c]) => n + c - (before[route] ?? 0), 0);
      emu.setFaults("none");
      saveResult({
        name: "import-org",
        machine,
        goalsMet: writes === 0 && importMs < cursorMs,
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
      // No destroy: the emulator (in memory) goes with everything it holds.
      rmSync(stack.workDir, { recursive: true, force: true });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
    await client.close();
    await emu.close();
  }
}

await main();
