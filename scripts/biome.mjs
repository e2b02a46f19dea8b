#!/usr/bin/env node
// Runs Biome, pinned by `config.biome` in package.json, through npx. Why not a devDependency: the
// registry this project installs from does not serve Biome's non-Linux platform packages, so npm
// leaves them out of package-lock.json and `npm ci` then refuses the lockfile on every fresh clone.
// npx installs without a lockfile (and caches), so the missing optional packages do not matter.
//   node scripts/biome.mjs ci .          (what npm test runs)
//   node scripts/biome.mjs check --write .
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const { config } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const r = spawnSync("npx", ["--yes", `@biomejs/biome@${config.biome}`, ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);
