import { LocalWorkspace, PulumiCommand, Stack } from "@pulumi/pulumi/automation/index.js";
import type { IrvClient } from "../../sdk/index.js";
import { LOST_CREATE_CLOCK_SKEW_MS } from "../../sdk/index.js";
import { clientFor, resolveSettings } from "../config/index.js";
import { CliError } from "./cli-error.js";
import { pulumiStep } from "./pulumi-failure.js";
import { RECOVER_KINDS, recoverMismatch } from "./recover-kinds.js";
import type { ClockOffset } from "./service-clock.js";
import { describeOffset, measureServiceClock } from "./service-clock.js";
import type { StateResource } from "./stack-state.js";
import { Deployment, unrecordedCreates, withAdopted } from "./stack-state.js";
import type { StateBackend } from "./state-backend.js";
import { stateBackend } from "./state-backend.js";

/**
 * Options of {@link recover}.
 *
 * @example
 * await recover({ cwd: "infra", stack: "prod", apply: true });
 */
export interface RecoverOptions {
  /** Stack name; default the workspace's selected stack. */
  stack?: string | undefined;
  /** The Pulumi project directory; default the current directory. */
  cwd?: string | undefined;
  /** Write the repaired state (default: a dry run that only reports). */
  apply?: boolean | undefined;
  /** When the interrupted run began; default the stale lock's time, else the last update's end. */
  since?: Date | undefined;
  /**
   * How much earlier than the interrupted run's start (on the service's clock, measured) a resource
   * may have been created and still be adopted. Default {@link RECOVER_CLOCK_MARGIN_MS}.
   */
  clockMarginMs?: number | undefined;
  /** Measures the service's clock against ours; default {@link measureServiceClock} (for tests). */
  measureClock?: ((baseUrl: string) => Promise<ClockOffset | undefined>) | undefined;
  /** Where the report goes, one line per call. Default stdout. */
  print?: ((line: string) => void) | undefined;
}

/**
 * What {@link recover} found (and with `apply`, did).
 *
 * @example
 * const { adopted, toCreate } = await recover({ apply: true });
 */
export interface RecoveryReport {
  stack: string;
  /** Pending creates the service made: urn → uid, now (with `apply`) resources of the state. */
  adopted: { urn: string; uid: string }[];
  /** Pending creates the service did not make: dropped; `pulumi up` creates them. */
  toCreate: string[];
  /** Empty or unparsable `.attrs` files deleted (always, see the command's help). */
  repairedFiles: string[];
  /** Whether a stale lock was cancelled. */
  cancelledLock: boolean;
  applied: boolean;
}

/**
 * The margin recover allows beyond the measured clock offset: a resource created up to this long
 * before the interrupted run began (on the service's clock) is still taken as the run's.
 *
 * @example
 * await recover({ clockMarginMs: RECOVER_CLOCK_MARGIN_MS });
 */
export const RECOVER_CLOCK_MARGIN_MS = 500;

interface Decision {
  op: StateResource;
  adopt?: { uid: string; outputs: Record<string, unknown>; note?: string | undefined };
  refusal?: string;
}

/**
 * Repairs a stack after an interrupted `pulumi up`: reads when the interrupted run began from the
 * stale lock (a file or PostgreSQL backend) or the update history, cancels the lock, repairs an
 * empty file-backend `.attrs` file, exports the state, adopts each pending create the service made (by
 * parent, name and the declared fields; a binding by group, identity and role), drops the rest and
 * imports the state back. Refuses, naming the resource, when a match is ambiguous. Uses the Pulumi
 * CLI on PATH through the Automation API.
 *
 * @example
 * const report = await recover({ cwd: "infra", apply: true });
 * console.log(report.adopted.length, "adopted;", report.toCreate.length, "left for pulumi up");
 */
export async function recover(options: RecoverOptions = {}): Promise<RecoveryReport> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const apply = options.apply === true;
  const workDir = options.cwd ?? process.cwd();
  // Each CLI start below is kept on purpose (issues 45/46 looked for ones to save): `pulumi version`
  // (in PulumiCommand.get) is how the Automation API knows whoAmI may ask `--json`, whose backend URL
  // lets recover read the lock (a CLI it can't tell is 3.58 or later is asked the plain form, with no
  // URL); `whoami` is where the CLI resolves the backend (Pulumi.yaml's backend.url, the environment,
  // the login), which nothing cheaper reproduces; and `stack select` checks the stack exists and
  // leaves it selected, which a user's next `pulumi up` may rely on.
  const pulumiCommand = await pulumiStep("run the pulumi CLI", () =>
    PulumiCommand.get({ skipVersionCheck: true }),
  );
  const workspace = await pulumiStep(`open the Pulumi project in ${workDir}`, () =>
    LocalWorkspace.create({ workDir, pulumiCommand }),
  );
  const stackName =
    options.stack ?? (await pulumiStep("find the selected stack", () => workspace.stack()))?.name;
  if (stackName === undefined) throw new CliError("no stack is selected here: pass --stack NAME");

  const backend = stateBackend((await pulumiStep("find the backend", () => workspace.whoAmI())).url);
  const projectName = (await workspace.projectSettings().catch(() => undefined))?.name;
  const lockedAt = await readLock(backend, stackName, projectName);
  // Deleting a broken attribute file is a repair even in a dry run: it is never valid, and while it
  // is there no command (export included) can read the stack.
  const repairedFiles = backend.repairBrokenAttrs();
  for (const f of repairedFiles)
    print(`repaired: deleted the broken (empty or unparsable) attribute file ${f}`);

  const stack = await pulumiStep(`select stack ${stackName}`, () => Stack.select(stackName, workspace));
  const history = async () =>
    pulumiStep(`read the update history of stack ${stackName}`, () => lastUpdateEnd(stack));
  const [since, source] =
    options.since !== undefined
      ? [options.since.getTime(), "--since"]
      : lockedAt !== undefined
        ? [lockedAt, "the stale lock's time"]
        : [
            await history(),
            `the end of the last update: ${backend.readsLocks ? "no lock is held" : "recover cannot read this backend's lock"}`,
          ];
  print(
    `stack ${stackName}: ${since === undefined ? "start of the interrupted run unknown (no lock, no update history)" : `interrupted run began at ${new Date(since).toISOString()} (${source})`}${apply ? "" : " (dry run: nothing written; --apply writes)"}`,
  );

  const deployment = Deployment.parse(
    (await pulumiStep(`export the state of stack ${stackName}`, () => stack.exportStack())).deployment,
  );
  const pending = unrecordedCreates(deployment);
  const config = await pulumiStep(`read the config of stack ${stackName}`, () => stack.getAllConfig());
  const settings = resolveSettings((k) => config[k]?.value);
  const client = clientFor(settings);
  // Creation times are the service's clock, the run's start is ours: measure the difference rather
  // than allow a fixed skew, which let a same-named resource made seconds before the run pass as
  // the run's (issue 25). Without a Date header, the fixed skew of a lost create stays.
  const window =
    pending.length === 0 || since === undefined
      ? { offsetMs: 0, marginMs: LOST_CREATE_CLOCK_SKEW_MS }
      : await clockWindow(
          client.transport.baseUrl,
          options.measureClock ?? ((baseUrl) => measureServiceClock({ baseUrl })),
          options.clockMarginMs ?? RECOVER_CLOCK_MARGIN_MS,
          print,
        );
  // The client is the process-wide one of these settings (clientFor): the process exit closes it.
  const decisions = await mapLimited(pending, 8, (op) => decide(client, op, since, window));

  const refusals = decisions.filter((d) => d.refusal !== undefined);
  if (refusals.length > 0)
    throw new CliError(
      `refusing to recover stack ${stackName}, nothing was changed:\n${refusals.map((d) => `  ${d.op.urn}: ${d.refusal}`).join("\n")}`,
    );

  const adopted = decisions.flatMap((d) => (d.adopt ? [{ urn: d.op.urn, uid: d.adopt.uid }] : []));
  const toCreate = decisions.filter((d) => !d.adopt).map((d) => d.op.urn);
  for (const d of decisions)
    if (d.adopt)
      print(
        `${apply ? "adopted" : "would adopt"}: ${d.op.urn} = ${d.adopt.uid}${d.adopt.note ? ` (${d.adopt.note})` : ""}`,
      );
  for (const urn of toCreate) print(`pulumi up will create: ${urn}`);

  let cancelledLock = false;
  if (apply) {
    if (!backend.readsLocks || lockedAt !== undefined) {
      cancelledLock = await pulumiStep(`cancel the stale lock of stack ${stackName}`, () =>
        cancelLock(stack),
      );
      if (cancelledLock) print(`cancelled the stale lock of stack ${stackName}`);
    }
    if (pending.length > 0 || (deployment.pending_operations ?? []).some((op) => op.type === "creating")) {
      const resources = decisions.flatMap((d): StateResource[] =>
        d.adopt ? [{ ...d.op, id: d.adopt.uid, outputs: d.adopt.outputs }] : [],
      );
      await pulumiStep(`import the repaired state into stack ${stackName}`, () =>
        stack.importStack({ version: 3, deployment: withAdopted(deployment, resources) }),
      );
    }
  } else if (lockedAt !== undefined) print(`would cancel the stale lock of stack ${stackName}`);
  print(
    `${adopted.length} ${apply ? "adopted" : "to adopt"}, ${toCreate.length} left for pulumi up${pending.length === 0 ? " (no pending creates)" : ""}`,
  );
  return { stack: stackName, adopted, toCreate, repairedFiles, cancelledLock, applied: apply };
}

// On the service's clock, a candidate must be created no earlier than the run's start plus the
// smallest offset the measurement allows, minus the margin.
interface Window {
  offsetMs: number;
  marginMs: number;
}

async function clockWindow(
  baseUrl: string,
  measure: (baseUrl: string) => Promise<ClockOffset | undefined>,
  marginMs: number,
  print: (line: string) => void,
): Promise<Window> {
  const offset = await measure(baseUrl).catch(() => undefined);
  if (offset === undefined) {
    print(
      `the service's clock is unknown (its answers carry no Date header): allowing ${LOST_CREATE_CLOCK_SKEW_MS / 1000} s of clock skew`,
    );
    return { offsetMs: 0, marginMs: LOST_CREATE_CLOCK_SKEW_MS };
  }
  print(`${describeOffset(offset)}: adopting only what was created after the interrupted run began`);
  return { offsetMs: offset.lowMs, marginMs };
}

const DYNAMIC_TOKEN = "pulumi-nodejs:dynamic/irv:";

async function decide(
  client: IrvClient,
  op: StateResource,
  since: number | undefined,
  window: Window,
): Promise<Decision> {
  const kind = RECOVER_KINDS[op.type];
  if (kind === undefined && op.type === `${DYNAMIC_TOKEN}PullToken`)
    return {
      op,
      refusal:
        "a pull token's password was only in the interrupted create: delete the identity it left in its group (named after the token and a timestamp, if any) and run pulumi up to make a new token",
    };
  if (kind === undefined)
    return { op, refusal: `recover does not know resources of type ${op.type}; repair it by hand` };
  const inputs = op.inputs ?? {};
  const request = kind.request(inputs);
  const candidates = await kind.candidates(client, request);
  if (candidates.length === 0) return { op };
  if (since === undefined && kind.timeless === undefined)
    return {
      op,
      refusal: `${candidates.map((c) => c.uid).join(", ")} matches it, and when the interrupted run began is unknown (no lock, no update history): pass --since`,
    };
  const sent = {
    parentUid: kind.flatUids === true ? undefined : request.parentUid,
    body: request.body,
    startedAt: (since ?? 0) + window.offsetMs,
    clockSkewMs: window.marginMs,
  };
  const why = candidates.map((c) => ({
    uid: c.uid,
    why: recoverMismatch(kind, c, sent)?.replace("this create began", "the interrupted run began"),
    server: c,
  }));
  const made = why.filter((w) => w.why === undefined);
  const only = made[0];
  if (candidates.length === 1 && only !== undefined) {
    const outputs = { ...kind.definition.outputsOf(only.server, inputs), __provider: inputs.__provider };
    const note =
      kind.adoptNote ??
      (kind.timeless === undefined
        ? undefined
        : `matched on its parent and fields, the service giving it no creation time: ${kind.timeless}`);
    return { op, adopt: { uid: only.uid, outputs, note } };
  }
  return {
    op,
    refusal: `ambiguous: ${why.map((w) => `${w.uid} has its name but ${w.why ?? "matches too"}`).join("; ")} — it may be someone else's: import it with the import option or rename the resource`,
  };
}

// The lock of a file or PostgreSQL backend; any other backend's is unknown (undefined).
async function readLock(
  backend: StateBackend,
  stackName: string,
  projectName: string | undefined,
): Promise<number | undefined> {
  try {
    return await backend.lockTakenAt(stackName, projectName);
  } catch (err) {
    throw new CliError(
      `could not read the lock of stack ${stackName} in the backend ${backend.shown}: ${err instanceof Error ? err.message : String(err)}. What to do: check that the backend is reachable from here and its URL (pulumi whoami -v),`,
    );
  }
}

async function lastUpdateEnd(stack: Stack): Promise<number | undefined> {
  const [last] = await stack.history(1);
  return last?.endTime?.getTime();
}

async function cancelLock(stack: Stack): Promise<boolean> {
  try {
    await stack.cancel();
    return true;
  } catch (err) {
    // Nothing to cancel is fine: the lock may already be gone.
    if (/no update|not locked|currently not|no lock/i.test(String(err))) return false;
    throw err;
  }
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
