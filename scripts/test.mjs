#!/usr/bin/env node
// `npm test`: lint, build, type-check, then every vitest project. `npm run test:quick` (`--quick`):
// the same checks, then only the unit and integration projects (no engine, minutes not tens of them). Prints one plain closing line
// ("vitest: N passed, N failed, N skipped") so CI can read the count whatever the reporter prints.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
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
run("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]);

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
process.exit(r.status ?? 1);
