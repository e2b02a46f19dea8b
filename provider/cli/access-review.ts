import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation/index.js";
import type { KnownRole, StackResource, UnapprovedChange } from "../../sdk/index.js";
import {
  approvalHint,
  deprecations,
  liveAccessOf,
  orgModelOf,
  parseApprovals,
  reviewAccess,
  uidIndexOf,
  unapprovedChanges,
} from "../../sdk/index.js";
import { clientFor, resolveSettings } from "../config/index.js";
import type { LiveSummary, StackReview } from "../review/index.js";
import {
  PreviewDigest,
  renderMarkdown,
  renderText,
  reviewJson,
  sidesOfPreview,
  stackResourceOf,
} from "../review/index.js";
import { CliError } from "./cli-error.js";
import { Deployment } from "./stack-state.js";

/**
 * Options of {@link accessReview}.
 *
 * @example
 * const opts: AccessReviewOptions = { stack: "dev", format: "markdown", failOn: "risky" };
 */
export interface AccessReviewOptions {
  /** The stack (default: the selected stack of the project). */
  stack?: string | undefined;
  /** The Pulumi project directory (default: the current directory). */
  cwd?: string | undefined;
  /** A file holding the output of `pulumi preview --json`, instead of running a preview. */
  plan?: string | undefined;
  format?: "markdown" | "json" | "text" | undefined;
  /** Exit non-zero when a risky (or any) gain is not covered by an approval. */
  failOn?: "risky" | "any" | undefined;
  /** The approvals file (default: `access-approvals.yaml` in `cwd`, when it exists). */
  approvals?: string | undefined;
  /**
   * Also write what the `access-broadening` policy needs into this directory: `before.json` (the
   * exported state) and `roles.json` (the roles read from the API).
   */
  gateInputs?: string | undefined;
  /**
   * Also read, with the stack's credentials, every binding in the subtrees the stack touches: the
   * review then counts access from outside the stack (a new binding granting nothing new is no gain).
   */
  live?: boolean | undefined;
  /** The markdown size cap (characters). */
  maxChars?: number | undefined;
  print?: (text: string) => void;
  /** Where the findings that fail the run are listed (stderr by default). */
  printErr?: (text: string) => void;
  now?: Date;
}

/**
 * What {@link accessReview} found: the report as printed, the findings that fail the gate, and
 * the exit code.
 *
 * @example
 * const { exitCode } = await accessReview({ stack: "dev", failOn: "risky" });
 */
export interface AccessReviewResult {
  report: string;
  stacks: StackReview[];
  unapproved: UnapprovedChange[];
  exitCode: number;
}

/**
 * `pulumi-irv access-review`: previews the stack (or reads a `pulumi preview --json` file), compares
 * every identity's effective capabilities before and after through the group tree, and prints one
 * report. Built-in and custom roles outside the stack are read from the API with the stack's
 * `irv:*` config, then the `IRV_*` environment variables.
 *
 * @example
 * const { report } = await accessReview({ cwd: "infra", stack: "prod", format: "markdown" });
 */
export async function accessReview(options: AccessReviewOptions = {}): Promise<AccessReviewResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const read = await readSides(options, cwd);
  const { stackName, config, deployment } = read;
  // The preview is the long pole: the roles are read while it runs, and a failure stops it.
  let roles: KnownRole[];
  let planned: StackResource[];
  let client: ReturnType<typeof clientOf>;
  read.after.catch(() => {});
  try {
    client = clientOf(config);
    [roles, planned] = await Promise.all([
      client.roles
        .collect()
        .then((rs) => rs.map((r) => ({ uid: r.uid, name: r.name, capabilities: r.capabilities }))),
      read.after,
    ]);
  } catch (err) {
    read.stop();
    throw err;
  }
  const sides = { before: read.before, after: planned };
  if (options.gateInputs !== undefined) {
    if (deployment === undefined)
      throw new CliError("--gate-inputs needs a stack (not --plan): it writes the stack's state", 2);
    mkdirSync(options.gateInputs, { recursive: true });
    writeFileSync(join(options.gateInputs, "before.json"), JSON.stringify({ version: 3, deployment }));
    writeFileSync(join(options.gateInputs, "roles.json"), JSON.stringify(roles));
  }
  const live = options.live === true ? await readLive(client, sides.before, sides.after) : undefined;
  const before = [...sides.before, ...(live?.resources ?? [])];
  const after = [...sides.after, ...(live?.resources ?? [])];
  const uidIndex = uidIndexOf([...before, ...after]);
  const review = reviewAccess(
    orgModelOf(before, { roles, uidIndex }),
    orgModelOf(after, { roles, uidIndex }),
  );
  const stacks: StackReview[] = [{ stack: stackName, review, live: live?.summary }];

  const format = options.format ?? "text";
  const report =
    format === "markdown"
      ? renderMarkdown(stacks, { maxChars: options.maxChars })
      : format === "json"
        ? JSON.stringify(reviewJson(stacks), null, 2)
        : renderText(stacks);
  (options.print ?? ((t) => process.stdout.write(`${t}\n`)))(report);

  const approvalsFile = options.approvals ?? join(cwd, "access-approvals.yaml");
  const approvals =
    options.approvals !== undefined || existsSync(approvalsFile)
      ? parseApprovals(readText(approvalsFile, "--approvals"), approvalsFile)
      : [];
  const printErr = options.printErr ?? ((t) => process.stderr.write(`${t}\n`));
  for (const line of deprecations(approvals, approvalsFile)) printErr(line);
  const unapproved =
    options.failOn === undefined
      ? []
      : unapprovedChanges(review, approvals, { failOn: options.failOn, now: options.now ?? new Date() });
  for (const u of unapproved)
    printErr(
      `not approved: ${u.what} (row ${u.row}${u.expired.length > 0 ? `; approvals expired ${u.expired.join(", ")}` : ""}); to approve, add to ${approvalsFile}: ${approvalHint(u)}`,
    );
  return { report, stacks, unapproved, exitCode: unapproved.length > 0 ? 1 : 0 };
}

function readText(path: string, flag: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new CliError(`${flag} ${path}: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
}

async function readSides(
  options: AccessReviewOptions,
  cwd: string,
): Promise<{
  stackName: string;
  before: StackResource[];
  /** The planned state: a preview still running when the rest is read. */
  after: Promise<StackResource[]>;
  /** Stops the preview (when the review fails before it ends). */
  stop: () => void;
  config: (k: string) => string | undefined;
  /** The exported state, when the review read the stack. */
  deployment?: unknown;
}> {
  if (options.plan !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(readText(options.plan, "--plan"));
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`--plan ${options.plan} is not JSON: give the output of "pulumi preview --json"`, 2);
    }
    const digest = PreviewDigest.safeParse(json);
    if (!digest.success || (json as { resourcePlans?: unknown }).resourcePlans !== undefined)
      throw new CliError(
        `--plan ${options.plan} is not the output of "pulumi preview --json" (a plan saved by --save-plan holds input diffs, not the planned state)`,
        2,
      );
    const { before, after } = sidesOfPreview(digest.data);
    return {
      stackName: options.stack ?? "plan",
      before,
      after: Promise.resolve(after),
      stop: () => {},
      config: () => undefined,
    };
  }
  const pulumiCommand = await PulumiCommand.get({ skipVersionCheck: true });
  // The preview is the long pole: it starts as soon as the stack is named, and the workspace, the
  // state and the config are read while it runs (reads only: no lock is taken).
  const abort = new AbortController();
  const stop = () => abort.abort();
  const start = (name: string) => {
    const p = previewJson(pulumiCommand.command, name, cwd, abort.signal);
    p.catch(() => {});
    return p;
  };
  let previewing = options.stack === undefined ? undefined : start(options.stack);
  let stackName: string;
  let exported: unknown;
  let all: Awaited<ReturnType<LocalWorkspace["getAllConfig"]>>;
  try {
    const workspace = await LocalWorkspace.create({ workDir: cwd, pulumiCommand });
    const name = options.stack ?? (await workspace.stack())?.name;
    if (name === undefined) throw new CliError("no stack is selected here: pass --stack NAME", 2);
    stackName = name;
    previewing ??= start(name);
    // By name, without `stack select` (which would change the user's selected stack); the state as
    // stored, secrets still encrypted: the review reads no secret of it (and --gate-inputs writes none).
    [exported, all] = await Promise.all([
      stackExport(pulumiCommand.command, name, cwd, abort.signal),
      workspace.getAllConfig(name),
    ]);
  } catch (err) {
    stop();
    throw err;
  }
  const planning = previewing;
  const deployment = Deployment.parse(exported);
  const before = (deployment.resources ?? []).map((r) =>
    stackResourceOf(r as Parameters<typeof stackResourceOf>[0]),
  );
  const after = planning.then((json) => sidesOfPreview(PreviewDigest.parse(JSON.parse(json)), before).after);
  return { stackName, before, after, stop, config: (k) => all[k]?.value, deployment: exported };
}

async function stackExport(
  pulumi: string,
  stack: string,
  cwd: string,
  signal: AbortSignal,
): Promise<unknown> {
  try {
    const { stdout } = await promisify(execFile)(
      pulumi,
      ["stack", "export", "--stack", stack, "--non-interactive"],
      { cwd, maxBuffer: 1024 * 1024 * 1024, signal },
    );
    return (JSON.parse(stdout) as { deployment?: unknown }).deployment;
  } catch (err) {
    const e = err as { stderr?: string; message?: string };
    throw new CliError(
      `pulumi stack export --stack ${stack} failed: ${(e.stderr || e.message || "").trim().split("\n")[0]}`,
    );
  }
}

async function previewJson(pulumi: string, stack: string, cwd: string, signal: AbortSignal): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(
      pulumi,
      ["preview", "--json", "--stack", stack, "--non-interactive"],
      {
        cwd,
        maxBuffer: 512 * 1024 * 1024,
        signal,
      },
    );
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message?: string };
    // The JSON's diagnostics say why the preview failed (the program's error, a policy violation).
    const diags = (() => {
      try {
        const d = JSON.parse(e.stdout ?? "") as { diagnostics?: { message?: string; severity?: string }[] };
        return (d.diagnostics ?? []).filter((x) => x.severity === "error").map((x) => x.message?.trim());
      } catch {
        return [];
      }
    })();
    throw new CliError(
      `pulumi preview of stack ${stack} failed, so there is no planned state to review: ${diags.join("; ") || e.stderr?.trim() || e.message}`,
    );
  }
}

// The API client of the stack's settings; the review reads roles (and, with --live, bindings).
function clientOf(config: (k: string) => string | undefined) {
  const settings = resolveSettings(config);
  if (!settings.baseUrl)
    throw new CliError(
      "the review reads the roles' capabilities from the API: set irv:baseUrl in the stack's config or IRV_BASE_URL (and a token: irv:token / IRV_TOKEN, or irv:identity with a workload token)",
      2,
    );
  // The client is the process-wide one of these settings (clientFor): the process exit closes it.
  return clientFor(settings);
}

async function readLive(
  client: ReturnType<typeof clientFor>,
  before: readonly StackResource[],
  after: readonly StackResource[],
): Promise<{ resources: StackResource[]; summary: LiveSummary }> {
  const live = await liveAccessOf(client, [...before, ...after]);
  const name = (v: unknown, uid: unknown) =>
    String((v as { name?: unknown } | undefined)?.name ?? uid ?? "(unknown)");
  return {
    resources: live.resources,
    summary: {
      requests: live.requests,
      subtrees: [...live.subtrees, ...live.groups],
      outside: live.resources.map((r) => ({
        uid: String(r.props.uid),
        identity: name(r.props.identity, r.props.identityUid),
        role: name(r.props.role, r.props.roleUid),
        group: name(r.props.group, r.props.groupUid),
      })),
    },
  };
}
