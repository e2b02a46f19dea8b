import { resolve } from "node:path";
import { exportStack, selectedStack, stackConfig } from "../pulumi-cli/index.js";
import { CliError } from "./cli-error.js";
import type { DriftReport } from "./drift-compare.js";
import type { DriftAbout } from "./drift-render.js";
import { cliStep, stackClient } from "./stack-client.js";
import type { StateResource } from "./stack-state.js";
import { Deployment } from "./stack-state.js";

/**
 * Options of {@link drift}.
 *
 * @example
 * const opts: DriftOptions = { stack: "prod", format: "markdown", failOn: "risky" };
 */
export interface DriftOptions {
  /** The stack (default: the selected stack of the project). */
  stack?: string | undefined;
  /** The Pulumi project directory (default: the current directory). */
  cwd?: string | undefined;
  /** Default `text`. */
  format?: "text" | "markdown" | "json" | undefined;
  /** Exit 1 when something is found at this level: `any` finding, a `risky` one; `none` (default): never. */
  failOn?: "none" | "any" | "risky" | undefined;
  /** Where the report goes (default: stdout). */
  print?: ((text: string) => void) | undefined;
}

/**
 * What {@link drift} found, and its exit code.
 *
 * @example
 * const { report, exitCode } = await drift({ stack: "prod", failOn: "any" });
 */
export interface DriftResult {
  /** The rendered report. */
  text: string;
  report: DriftReport;
  about: DriftAbout;
  exitCode: 0 | 1;
}

/**
 * `pulumi-irv drift`: reads the stack's state (`pulumi stack export`, as stored) and, with the
 * stack's credentials, the organization where the stack has objects — by lists, pages of 200 — and
 * reports each managed object changed or deleted outside code, each object below a managed group
 * that the stack does not manage, and the access each of them changes. Writes no state and takes
 * no lock.
 *
 * @example
 * const { exitCode } = await drift({ cwd: "infra", stack: "prod", format: "markdown", failOn: "risky" });
 */
export async function drift(options: DriftOptions = {}): Promise<DriftResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const at = { cwd };
  const stack = options.stack ?? (await cliStep(selectedStack(at)));
  if (stack === undefined) throw new CliError("no stack is selected here: pass --stack NAME", 2);
  // When one read fails the other is stopped: the CLI exits with the error, and a `pulumi` process
  // of its own left running would outlive it.
  const reads = new AbortController();
  const beside = { ...at, signal: reads.signal };
  const [exported, values, modules] = await Promise.all([
    cliStep(exportStack(stack, beside)) as Promise<{ deployment?: unknown }>,
    cliStep(stackConfig(stack, beside)),
    Promise.all([
      import("./drift-read.js"),
      import("./drift-compare.js"),
      import("./drift-render.js"),
      import("../config/index.js"),
    ]),
  ]).catch((err: unknown) => {
    reads.abort();
    throw err;
  });
  const [read, compare, render, config] = modules;
  const parsed = Deployment.safeParse(exported.deployment ?? {});
  if (!parsed.success)
    throw new CliError(
      `the exported state of stack ${stack} is not a Pulumi deployment (pulumi stack export)`,
    );
  // What an explicit provider manages lives where its own settings point (another organization):
  // the stack's settings cannot read it, and it is not reported deleted; the report says so.
  const state: StateResource[] = [];
  const notRead: DriftAbout["notRead"] = [];
  for (const r of parsed.data.resources ?? []) {
    const provider = read.explicitProviderOf(r);
    if (provider === undefined) state.push(r);
    else if (r.type !== "pulumi:providers:irv") notRead.push({ urn: r.urn, provider });
  }
  const client = stackClient(config, (k) => values[k], "drift reads the organization from the API");
  const live = await read.readLiveOrg(client, state);
  const report = compare.compareDrift({
    state,
    live: live.objects,
    subtrees: live.subtrees,
    roles: live.roles,
  });
  const about: DriftAbout = {
    stack,
    requests: live.requests,
    objects: live.objects.length,
    subtrees: live.subtrees,
    notRead,
  };
  const format = options.format ?? "text";
  const text =
    format === "markdown"
      ? render.renderDriftMarkdown(report, about)
      : format === "json"
        ? JSON.stringify(render.driftJson(report, about), null, 2)
        : render.renderDriftText(report, about);
  (options.print ?? ((t) => process.stdout.write(`${t}\n`)))(text);
  const failOn = options.failOn ?? "none";
  const found =
    failOn === "any"
      ? report.findings.length > 0
      : failOn === "risky"
        ? report.findings.some((f) => f.risky) || report.review.lockOut !== undefined
        : false;
  return { text, report, about, exitCode: found ? 1 : 0 };
}
