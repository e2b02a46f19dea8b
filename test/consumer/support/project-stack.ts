import { mkdirSync } from "node:fs";
import path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation/index.js";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation/index.js";
import { pulumiEnv } from "../../../scripts/pulumi-cli.js";

/** A stack of a consumer project, run in place (as a user runs `pulumi up` in their project dir). */
export interface ProjectStack {
  stack: Stack;
  /** Engine events of every operation so far (policy violations, diagnostics, summaries). */
  events: EngineEvent[];
}

/**
 * Creates a stack of the Pulumi project in `projectDir` on a local backend under `workDir`, through
 * the Automation API and the CLI in `binDir`, and sets its config (`secret` keys encrypted).
 *
 * @example
 * const { stack } = await projectStack({ projectDir, workDir, binDir, config: { orgUid } });
 * await stack.up();
 */
export async function projectStack(options: {
  projectDir: string;
  workDir: string;
  binDir: string;
  config: Record<string, string>;
  secret?: string[];
}): Promise<ProjectStack> {
  const stateDir = path.join(options.workDir, "state");
  const homeDir = path.join(options.workDir, "home");
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(homeDir, { recursive: true });
  const pulumiCommand = await PulumiCommand.get({
    root: path.dirname(options.binDir),
    skipVersionCheck: true,
  });
  const envVars = pulumiEnv({ binDir: options.binDir, stateDir, homeDir });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", workDir: options.projectDir },
    { pulumiCommand, envVars },
  );
  const config = Object.fromEntries(
    Object.entries(options.config).map(([k, value]) => [
      k,
      { value, secret: options.secret?.includes(k) ?? false },
    ]),
  );
  await stack.setAllConfig(config);
  return { stack, events: [] };
}
