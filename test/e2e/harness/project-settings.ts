import { statSync } from "node:fs";
import path from "node:path";
import type { ProjectSettings, PulumiCommand } from "@pulumi/pulumi/automation/index.js";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";

/**
 * The program's project settings (its Pulumi.yaml, read by the Automation API), with `main` an absolute
 * path to the program, to be saved in a temp project dir. Why a separate project dir: the CLI writes
 * `Pulumi.<stack>.yaml` (config, encryption salt) next to Pulumi.yaml, and tests must neither dirty the
 * repository nor share that file between runs. Without a Pulumi.yaml the project is named after the
 * program's directory and runs on Node.js.
 * @example
 * const settings = await programProjectSettings(fixtureDir("smoke-program"), undefined, command);
 * settings.main; // "/…/test/e2e/fixtures/smoke-program"
 */
export async function programProjectSettings(
  program: string,
  projectName: string | undefined,
  pulumiCommand: PulumiCommand,
): Promise<ProjectSettings> {
  const programPath = path.resolve(program);
  const programDir = statSync(programPath).isDirectory() ? programPath : path.dirname(programPath);
  const ws = await LocalWorkspace.create({ workDir: programDir, pulumiCommand });
  let project: ProjectSettings | undefined;
  try {
    project = await ws.projectSettings();
  } catch (err) {
    if (!String(err).includes("failed to find project settings")) throw err;
  }
  const main =
    programPath === programDir && project?.main !== undefined
      ? path.resolve(programDir, project.main)
      : programPath;
  return {
    ...project,
    name: projectName ?? project?.name ?? path.basename(programDir),
    runtime: project?.runtime ?? "nodejs",
    main,
  };
}
