// vitest globalSetup of the e2e project: find or build the Pulumi CLI once per run (building prints
// progress and takes minutes the first time on a machine) and hand its bin dir to the tests.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { buildPlugin } from "../../scripts/build-plugin.ts";
import { ensurePulumiCli } from "../../scripts/pulumi-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Provides `pulumiBinDir` (see test/e2e/harness/pulumi-bin.ts) to every e2e test, and to the e2e
 * project the native plugin, bundled and packed once for the run (test/e2e/support/native-plugin.ts):
 * files run side by side, and a file rebuilding dist/plugin would pull it from under another's stack.
 */
export default async function setup(project: TestProject): Promise<void> {
  // Programs under test and their provider processes load `pulumi-irv` (dist/) through
  // node_modules/pulumi-irv; an `npm install` run since the last build may have pruned that link.
  if (!existsSync(path.join(root, "dist", "provider", "runtime", "index.js")))
    throw new Error("dist/ is not built: run `npm run build` (npm test does it) before the e2e tests");
  const link = spawnSync(process.execPath, [path.join(root, "scripts", "link-self.mjs")], {
    stdio: "inherit",
  });
  if (link.status !== 0) throw new Error("could not link node_modules/pulumi-irv to the checkout");
  const cli = await ensurePulumiCli({ log: (line) => console.error(line) });
  console.error(`e2e: Pulumi CLI v${cli.version} (${cli.source}) in ${cli.binDir}`);
  project.provide("pulumiBinDir", cli.binDir);
  if (project.name === "e2e") project.provide("nativePlugin", await buildPlugin());
}
