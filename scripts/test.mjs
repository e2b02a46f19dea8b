#!/usr/bin/env node
// `npm test`: lint, build, type-check, then every vitest project. Prints one plain closing line
// ("vitest: N passed, N failed, N skipped") so CI can read the count whatever the reporter prints.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

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

const results = ".vitest-results.json";
rmSync(results, { force: true });
const extra = process.argv.slice(2);
const r = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...extra],
  { stdio: "inherit" },
);
if (existsSync(results)) {
  const j = JSON.parse(readFileSync(results, "utf8"));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  console.log(`\nvitest: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(r.status ?? 1);
