// Benchmark: the state backend under a checkpointed `pulumi up` — the CLI's file backend against its
// PostgreSQL DIY backend (`postgres://…`, a PostgreSQL server started here on loopback with a
// throwaway data directory and its durability settings as a team's server has them), side by side in
// one run. With checkpoints (the CLI's default) a DIY backend rewrites the whole state after every
// step, so an up costs time in the square of the stack's size; `PULUMI_SKIP_CHECKPOINTS=true` writes
// it once at the end. The program is test/e2e/fixtures/org-tree-program on its do-nothing providers
// (mode noop: groups, identities and bindings in equal thirds), so the time is the engine's and the
// backend's, not a provider's.
//
// Run: npm run bench -- state-backends (only when named: about 15 minutes on 2 cores).
// Options: --size=N (IRV_BENCH_BACKEND_SIZE, default 1200), --small=N (IRV_BENCH_BACKEND_SMALL,
// 300): sizes are rounded down to a multiple of 3. Smoke: --size=60 --small=30.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import type { PostgresServer } from "../scripts/postgres-server.ts";
import { startPostgres } from "../scripts/postgres-server.ts";
import { ensurePulumiCli } from "../scripts/pulumi-cli.ts";
import type { TestStack } from "../test/e2e/harness/index.ts";
import { createStack, fixtureDir } from "../test/e2e/harness/index.ts";
import {
  bytes,
  machineInfo,
  ms,
  numberOption,
  progress,
  saveResult,
  table,
  times,
} from "./support/bench-kit.ts";

const per = (n: number) => Math.max(1, Math.floor(n / 3));
const SIZE = 3 * per(numberOption("size", "IRV_BENCH_BACKEND_SIZE", 1200));
const SMALL = 3 * per(numberOption("small", "IRV_BENCH_BACKEND_SMALL", 300));

type Backend = "file" | "postgres";
type Checkpoints = "every" | "final";

interface Run {
  backend: Backend;
  size: number;
  checkpoints: Checkpoints;
  upMs: number;
  stateBytes: number;
}

const cli = await ensurePulumiCli({ log: progress });
const machine = machineInfo(cli.binDir);
const pg: PostgresServer = await startPostgres({ durable: true });
const runs: Run[] = [];
let stackNo = 0;

/** One fresh stack's up on a backend; the stack's temp dirs go after (no destroy: nothing exists). */
async function up(backend: Backend, size: number, checkpoints: Checkpoints): Promise<Run> {
  const name = `s${++stackNo}`;
  const backendUrl = backend === "postgres" ? await pg.createDatabase(name) : undefined;
  const stack: TestStack = await createStack({
    program: fixtureDir("org-tree-program"),
    binDir: cli.binDir,
    stackName: name,
    timeoutMs: 3_600_000,
    ...(backendUrl === undefined ? {} : { backendUrl }),
    env: checkpoints === "final" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
    config: {
      orgUid: "noop-org",
      mode: "noop",
      prefix: name,
      groups: String(per(size)),
      identities: String(per(size)),
      bindings: String(per(size)),
    },
  });
  try {
    progress(`${backend}, ${size} resources, checkpoints ${checkpoints}: up…`);
    const result = await stack.up();
    const stateBytes = (await stack.run(["stack", "export", "--stack", name])).stdout.length;
    const run = { backend, size, checkpoints, upMs: result.durationMs, stateBytes };
    progress(`  ${ms(run.upMs)}`);
    return run;
  } finally {
    rmSync(stack.workDir, { recursive: true, force: true });
  }
}

try {
  // Side by side: each size on both backends one after the other, so a change in the machine's load
  // falls on both.
  for (const [size, checkpoints] of [
    [SMALL, "every"],
    [SIZE, "every"],
    [SIZE, "final"],
  ] as const)
    for (const backend of ["file", "postgres"] as const) runs.push(await up(backend, size, checkpoints));
} finally {
  await pg.stop();
}

const find = (backend: Backend, size: number, checkpoints: Checkpoints) =>
  runs.find((r) => r.backend === backend && r.size === size && r.checkpoints === checkpoints) as Run;
const version = execFileSync(`${pg.binDir}/postgres`, ["--version"], { encoding: "utf8" }).trim();
const rows = (
  [
    [SMALL, "every"],
    [SIZE, "every"],
    [SIZE, "final"],
  ] as const
).map(([size, checkpoints]) => {
  const file = find("file", size, checkpoints);
  const postgres = find("postgres", size, checkpoints);
  return [
    String(size),
    checkpoints === "every" ? "after every step (default)" : "`PULUMI_SKIP_CHECKPOINTS=true`",
    ms(file.upMs),
    ms(postgres.upMs),
    times(postgres.upMs / file.upMs),
    bytes(file.stateBytes),
  ];
});
const growth = (backend: Backend) => find(backend, SIZE, "every").upMs / find(backend, SMALL, "every").upMs;

const markdown = [
  "## State backends: file vs PostgreSQL (bench/state-backends.ts)",
  "",
  `A first \`pulumi up\` of test/e2e/fixtures/org-tree-program on do-nothing providers (mode noop), one`,
  `fresh stack per row and backend, the two backends one after the other in one run: the CLI's file`,
  `backend (a local directory) and its PostgreSQL DIY backend (\`postgres://\`, ${version} on loopback,`,
  "default durability settings). Machine: " +
    `${machine.nproc} cores (${machine.cpu}), load ${machine.loadAverage} at the start, Pulumi CLI ${machine.pulumiCli}.`,
  "",
  table(["resources", "state written", "file", "PostgreSQL", "PostgreSQL ÷ file", "state size"], rows),
  "",
  `With a checkpoint after every step, ${SIZE / SMALL}× the resources took ${times(growth("file"))} the time on the file`,
  `backend and ${times(growth("postgres"))} on PostgreSQL (a cost linear in the stack's size would take ${SIZE / SMALL}×): both`,
  "rewrite the whole state at each checkpoint (the PostgreSQL backend keeps each state file as one row).",
].join("\n");

saveResult({
  name: "state-backends",
  markdown,
  machine,
  data: { size: SIZE, small: SMALL, postgres: version, runs },
});
