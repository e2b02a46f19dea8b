// vitest globalSetup of the e2e project: find or build the Pulumi CLI once per run (building prints
// progress and takes minutes the first time on a machine) and hand its bin dir to the tests.
import type { TestProject } from "vitest/node";
import { ensurePulumiCli } from "../../scripts/pulumi-cli.js";

/** Provides `pulumiBinDir` (see test/e2e/harness/pulumi-bin.ts) to every e2e test. */
export default async function setup(project: TestProject): Promise<void> {
  const cli = await ensurePulumiCli({ log: (line) => console.error(line) });
  console.error(`e2e: Pulumi CLI v${cli.version} (${cli.source}) in ${cli.binDir}`);
  project.provide("pulumiBinDir", cli.binDir);
}
