import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type {
  KnownRole,
  LiveSummary,
  StackResource,
  StackReview,
  UnapprovedChange,
} from "../../review/index.js";
import type { IrvClient } from "../../sdk/index.js";
import { exportStack, runPulumi, selectedStack, stackConfig } from "../pulumi-cli/index.js";
import { CliError } from "./cli-error.js";
import { cliStep, stackClient } from "./stack-client.js";

// What the review loads besides the `pulumi` runner: the access model with its renderers, and the
// API client. Loaded while the preview runs (the preview starts first), so the CLI's own start adds
// little to the pipeline's wait.
const loadModules = () =>
  Promise.all([import("../../review/index.js"), import("../config/index.js")]).then(([review, config]) => ({
    review,
    config,
  }));
type Modules = Awaited<ReturnType<typeof loadModules>>;

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
  // The preview starts first (readSides); the modules load while it runs.
  const [sidesRead, modules] = await Promise.all([readSides(options, cwd), loadModules()]);
  const { review: model } = modules;
  const { stackName, config, deployment } = sidesRead;
  // The preview is the long pole: the roles are read while it runs, and a failure stops it.
  let roles: KnownRole[];
  let planned: StackResource[];
  let client: IrvClient;
  sidesRead.after.catch(() => {});
  try {
    client = clientOf(modules, config);
    [roles, planned] = await Promise.all([model.knownRolesOf(client), sidesRead.after]);
  } catch (err) {
    sidesRead.stop();
    throw err;
  }
  const sides = { before: sidesRead.before, after: planned };
  if (options.gateInputs !== undefined) {
    if (deployment === undefined)
      throw new CliError("--gate-inputs needs a stack (not --plan): it writes the stack's state", 2);
    mkdirSync(options.gateInputs, { recursive: true });
    writeFileSync(join(options.gateInputs, "before.json"), JSON.stringify({ version: 3, deployment }));
    writeFileSync(join(options.gateInputs, "roles.json"), JSON.stringify(roles));
  }
  const live = options.live === true ? await readLive(modules, client, sides.before, sides.after) : undefined;
  const before = [...sides.before, ...(live?.resources ?? [])];
  const after = [...sides.after, ...(live?.resources ?? [])];
  const uidIndex = model.uidIndexOf([...before, ...after]);
  const review = model.reviewAccess(
    model.orgModelOf(before, { roles, uidIndex }),
    model.orgModelOf(after, { roles, uidIndex }),
  );
  const stacks: StackReview[] = [{ stack: stackName, review, live: live?.summary }];

  const format = options.format ?? "text";
  const report =
    format === "markdown"
      ? model.renderMarkdown(stacks, { maxChars: options.maxChars })
      : format === "json"
        ? JSON.stringify(model.reviewJson(stacks), null, 2)
        : model.renderText(stacks);
  (options.print ?? ((t) => process.stdout.write(`${t}\n`)))(report);

  const approvalsFile = options.approvals ?? join(cwd, "access-approvals.yaml");
  const approvals =
    options.approvals !== undefined || existsSync(approvalsFile)
      ? model.parseApprovals(readText(approvalsFile, "--approvals"), approvalsFile)
      : [];
  const printErr = options.printErr ?? ((t) => process.stderr.write(`${t}\n`));
  for (const line of model.deprecations(approvals, approvalsFile)) printErr(line);
  const unapproved =
    options.failOn === undefined
      ? []
      : model.unapprovedChanges(review, approvals, {
          failOn: options.failOn,
          now: options.now ?? new Date(),
        });
  for (const u of unapproved)
    printErr(
      `not approved: ${u.what} (row ${u.row}${u.expired.length > 0 ? `; approvals expired ${u.expired.join(", ")}` : ""}); to approve, add to ${approvalsFile}: ${model.approvalHint(u)}`,
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

// The two sides of the review. With a stack, its preview starts before anything else (before the
// review's modules load: the caller loads them meanwhile), then the selected stack (when not
// named), the state and the config are read while it runs: reads only, no lock is taken.
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
    const text = readText(options.plan, "--plan");
    const { review } = await loadModules();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CliError(`--plan ${options.plan} is not JSON: give the output of "pulumi preview --json"`, 2);
    }
    const digest = review.PreviewDigest.safeParse(json);
    if (!digest.success || (json as { resourcePlans?: unknown }).resourcePlans !== undefined)
      throw new CliError(
        `--plan ${options.plan} is not the output of "pulumi preview --json" (a plan saved by --save-plan holds input diffs, not the planned state)`,
        2,
      );
    const { before, after } = review.sidesOfPreview(digest.data);
    return {
      stackName: options.stack ?? "plan",
      before,
      after: Promise.resolve(after),
      stop: () => {},
      config: () => undefined,
    };
  }
  const abort = new AbortController();
  const stop = () => abort.abort();
  const at = { cwd, signal: abort.signal };
  const start = (name: string) => {
    const p = previewJson(name, cwd, abort.signal);
    p.catch(() => {});
    return p;
  };
  let previewing = options.stack === undefined ? undefined : start(options.stack);
  let stackName: string;
  let exported: { deployment?: unknown };
  let values: Record<string, string>;
  let review: Modules["review"];
  try {
    const name = options.stack ?? (await cliStep(selectedStack(at)));
    if (name === undefined) throw new CliError("no stack is selected here: pass --stack NAME", 2);
    stackName = name;
    previewing ??= start(name);
    // By name, without `stack select` (which would change the user's selected stack); the state as
    // stored, secrets still encrypted: the review reads no secret of it (and --gate-inputs writes none).
    // Both reads run beside the preview, on the cores it leaves idle (the preview is the long pole).
    const beside = { ...at, background: true };
    [exported, values, { review }] = await Promise.all([
      cliStep(exportStack(name, beside)) as Promise<{ deployment?: unknown }>,
      cliStep(stackConfig(name, beside)),
      loadModules(),
    ]);
  } catch (err) {
    stop();
    throw err;
  }
  const planning = previewing;
  const deployment = exported.deployment as
    | { resources?: Parameters<typeof review.stackResourceOf>[0][] }
    | undefined;
  const before = (deployment?.resources ?? []).map((r) => review.stackResourceOf(r));
  const after = planning.then(
    (json) => review.sidesOfPreview(review.PreviewDigest.parse(JSON.parse(json)), before).after,
  );
  return { stackName, before, after, stop, config: (k) => values[k], deployment: exported.deployment };
}

function previewJson(stack: string, cwd: string, signal: AbortSignal): Promise<string> {
  return cliStep(
    runPulumi(["preview", "--json", "--stack", stack], { cwd, signal }, (failure) => {
      // The JSON's diagnostics say why the preview failed (the program's error, a policy violation).
      try {
        const d = JSON.parse(failure.stdout) as { diagnostics?: { message?: string; severity?: string }[] };
        return (d.diagnostics ?? [])
          .filter((x) => x.severity === "error")
          .map((x) => x.message?.trim())
          .join("; ");
      } catch {
        return undefined;
      }
    }),
  ).catch((err: CliError) => {
    throw new CliError(
      `pulumi preview of stack ${stack} failed, so there is no planned state to review: ${err.message.replace(/^pulumi preview --json --stack \S+ failed: /, "")}`,
    );
  });
}

// The API client of the stack's settings; the review reads roles (and, with --live, bindings).
function clientOf({ config }: Modules, values: (k: string) => string | undefined): IrvClient {
  return stackClient(config, values, "the review reads the roles' capabilities from the API");
}

async function readLive(
  { review }: Modules,
  client: IrvClient,
  before: readonly StackResource[],
  after: readonly StackResource[],
): Promise<{ resources: StackResource[]; summary: LiveSummary }> {
  const live = await review.liveAccessOf(client, [...before, ...after]);
  const name = (v: unknown, uid: unknown) =>
    String((v as { name?: unknown } | undefined)?.name ?? uid ?? "(unknown)");
  return {
    resources: live.resources,
    summary: {
      requests: live.requests,
      subtrees: [...live.subtrees, ...live.groups],
      outside: live.resources.map((r) => ({
        uid: String(r.props.uid),
        // A mapping grants to the members of an external group, at its scope.
        identity:
          r.props.externalGroupId === undefined
            ? name(r.props.identity, r.props.identityUid)
            : `${String(r.props.externalGroupId)} (external group of ${String(r.props.identityProviderUid)})`,
        role: name(r.props.role, r.props.roleUid),
        group: name(r.props.group, r.props.groupUid ?? r.props.scope),
      })),
    },
  };
}
