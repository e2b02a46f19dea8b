#!/usr/bin/env node
// `npm test`: lint, build, then every vitest project with the type-check beside it. `npm run test:quick` (`--quick`):
// the same checks, then only the unit and integration projects (no engine, minutes not tens of them). Prints one plain closing line
// ("vitest: N passed, N failed, N skipped") so CI can read the count whatever the reporter prints.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { compileCacheDir } from "./pulumi-cli.ts";

// V8's code cache on disk for every Node process of the run (vitest's workers, the emulators, the
// programs and providers the engine starts), in the one place the harness also uses.
process.env.NODE_COMPILE_CACHE = compileCacheDir();

const run = (cmd, args) => {
  console.log(`\n> ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
};

run("node", ["scripts/biome.mjs", "ci", "."]);
// Build before the type-check: examples, tests and the emulator see `pulumi-irv` through its built
// declarations. All three packages (pulumi-irv, then the emulator and the policy pack).
run("npm", ["run", "--silent", "build"]);
// The type-check (a minute of one core) runs beside vitest rather than before it: the tests start a
// minute sooner, and a type error still fails the run. Its output goes to a file, printed at the end,
// so that it neither interleaves with the reporter's nor fills a pipe nobody reads while vitest runs.
const typeCheckDir = mkdtempSync(path.join(tmpdir(), "irv-tsc-"));
const typeCheckLog = path.join(typeCheckDir, "tsc.log");
const typeCheckFd = openSync(typeCheckLog, "w");
console.log("\n> npx tsc -p tsconfig.json --noEmit (beside vitest)");
const typeCheck = spawn("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"], {
  stdio: ["ignore", typeCheckFd, typeCheckFd],
});
const typeCheckExit = once(typeCheck, "exit");
closeSync(typeCheckFd);

/** The ten slowest test files of a vitest JSON report: where the next minute of CI is to be won. */
function printSlowest(report) {
  const files = (report.testResults ?? [])
    .map((f) => ({ file: path.relative(process.cwd(), f.name), s: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.s - a.s);
  const total = files.reduce((sum, f) => sum + f.s, 0);
  console.log(
    `\nThe ten slowest test files (of ${files.length}, ${Math.round(total)} s of file time in all):`,
  );
  for (const f of files.slice(0, 10)) console.log(`${f.s.toFixed(1).padStart(8)} s  ${f.file}`);
}

const results = ".vitest-results.json";
rmSync(results, { force: true });
const quick = process.argv.includes("--quick");
const extra = [
  ...(quick ? ["--project", "unit", "--project", "unit-isolated", "--project", "integration"] : []),
  ...process.argv.slice(2).filter((a) => a !== "--quick"),
];
const r = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...extra],
  { stdio: "inherit" },
);
if (existsSync(results)) {
  const j = JSON.parse(readFileSync(results, "utf8"));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  printSlowest(j);
  console.log(`\nvitest: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`);
}
const [tscCode, tscSignal] = await typeCheckExit;
const tscOutput = readFileSync(typeCheckLog, "utf8");
rmSync(typeCheckDir, { recursive: true, force: true });
if (tscCode !== 0) {
  console.error(`\n${tscOutput}\nnpx tsc -p tsconfig.json --noEmit failed (exit ${tscCode ?? tscSignal})`);
  process.exit(r.status === 0 ? (tscCode ?? 1) : (r.status ?? 1));
}
console.log("\ntsc -p tsconfig.json --noEmit: no type errors");
process.exit(r.status ?? 1);
