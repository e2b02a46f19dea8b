import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConfigMap, OutputMap, Stack } from "@pulumi/pulumi/automation/index.js";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { pulumiEnv } from "../../../scripts/pulumi-cli.js";
import { withDeadline } from "./deadline.js";
import type { EngineEvent } from "./engine-events.js";
import type { Operation } from "./operation-flags.js";
import { flagOptions } from "./operation-flags.js";
import { programProjectSettings } from "./project-settings.js";
import { pulumiBinDir } from "./pulumi-bin.js";
import type { CommandResult } from "./run-pulumi.js";
import { collectOutput, exitCodeOf, PulumiCommandError, pulumiCommand, runPulumi } from "./run-pulumi.js";
import { removeStoredConfig, writePlainConfig } from "./stack-settings.js";

/** A temp tree's removal, retried while a late writer still fills it. */
const REMOVE_TREE = { recursive: true, force: true, maxRetries: 5, retryDelay: 200 } as const;

/** A stack config value: plain text, or `{ value, secret: true }` for an encrypted secret. */
export type ConfigValue = string | { value: string; secret?: boolean };

/** Options for {@link createStack}. */
export interface TestStackOptions {
  /**
   * The program: a directory (with or without its own Pulumi.yaml) or an entry file. It runs where it
   * is, so it resolves `@pulumi/pulumi` and `pulumi-irv` from its own node_modules chain.
   */
  program: string;
  /** Stack name. Default `test`. */
  stackName?: string;
  /** Project name; default: `name` from the program's Pulumi.yaml, else the directory name. */
  projectName?: string;
  /** Stack config; keys without a namespace get the project's. */
  config?: Record<string, ConfigValue>;
  /** Extra environment for every command: it reaches the program and its dynamic providers. */
  env?: Record<string, string>;
  /** Policy pack directories applied to every `preview` and `up` of this stack. */
  policyPacks?: string[];
  /** Bin dir of the CLI; default: the one the e2e global setup provides. */
  binDir?: string;
  /**
   * The state backend's URL, e.g. a `postgres://…` database of test/e2e/support/postgres-backend.ts.
   * Default: a private file backend in the stack's temp dir (`state/`).
   */
  backendUrl?: string;
  /** Passphrase of the stack's secrets provider. Default: a fixed test value. */
  passphrase?: string;
  /**
   * Give up on any single operation or command after this many milliseconds (an operation is first
   * interrupted with SIGINT, as the Automation API does): default 5 minutes.
   */
  timeoutMs?: number;
  /** Give up on the stack's setup (workspace, `stack init`, config) after this many milliseconds: default 2 minutes. */
  setupTimeoutMs?: number;
  /**
   * {@link TestStack.dispose} destroys what the stack still has before deleting its files: for a
   * stack whose service outlives the test. Default false: a test's emulator goes with the test.
   */
  destroyOnDispose?: boolean;
  /**
   * Write the state after every step, as the CLI does by default: for a test that kills a run and
   * reads what it recorded. Default false (`PULUMI_SKIP_CHECKPOINTS=true`): the state is written once
   * an operation ends, even one that fails or is interrupted with SIGINT, and an operation on the
   * file backend no longer costs the square of the stack's size (bench/RESULTS.md, state backends).
   */
  checkpoints?: boolean;
}

/** Options for one engine operation. */
export interface OperationOptions {
  /** Policy pack directories for this operation, added to the stack's `policyPacks`. */
  policyPacks?: string[];
  /** `--policy-pack-config` files, in the same order as the packs. */
  policyPackConfigs?: string[];
  /** Extra environment for this operation only. */
  env?: Record<string, string>;
  /**
   * CLI flags, e.g. `["--target", urn]` or `["--expect-no-changes"]`, given to the Automation API as its
   * options (see the table in operation-flags.ts: `--expect-no-changes`, `--refresh`, `--target`,
   * `--replace`, `--exclude`, `--continue-on-error`, `--clear-pending-creates`, … where the CLI takes
   * them). Others are refused with an error listing the supported ones.
   */
  args?: string[];
  /** Resolve with the result on a non-zero exit instead of throwing {@link PulumiCommandError}. */
  allowFailure?: boolean;
}

/** The result of preview/up/refresh/destroy. */
export interface OperationResult extends CommandResult {
  /** Engine events (diagnostics, resource steps, policy violations, summary), from the Automation API. */
  events: EngineEvent[];
  /** Stack outputs after a successful `up`/`refresh`, secrets in plain text. */
  outputs?: Record<string, unknown>;
}

/** One resource in exported state (`pulumi stack export`); only the fields tests usually read. */
export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  provider?: string;
  dependencies?: string[];
  [key: string]: unknown;
}

/** Exported state (`pulumi stack export`). */
export interface StackState {
  version: number;
  features?: unknown;
  deployment: {
    manifest?: { time: string; magic: string; version: string };
    secrets_providers?: { type: string; state?: unknown };
    resources?: StateResource[];
    [key: string]: unknown;
  };
}

/** Keep the temp dirs of disposed stacks (for debugging a failing test): `IRV_E2E_KEEP=1`. */
const keepTempDirs = process.env.IRV_E2E_KEEP === "1";

/** Default limit of one operation (preview/up/refresh/destroy) or command. */
const DEFAULT_TIMEOUT_MS = 300_000;
/** Limit of the whole of {@link createStack} (workspace, `stack init`, config): seconds when healthy. */
const SETUP_TIMEOUT_MS = 120_000;

/** Stack config in the Automation API's form: a plain string is plain text. */
function configMap(config: Record<string, ConfigValue>): ConfigMap {
  return Object.fromEntries(
    Object.entries(config).map(([key, v]) => [
      key,
      typeof v === "string" ? { value: v, secret: false } : { value: v.value, secret: v.secret === true },
    ]),
  );
}

/**
 * Trims what the Automation API runs around an operation to what the harness reads. After each `up`
 * it runs `pulumi stack output` twice (masked, then with secrets, to tell which are secret) and
 * `pulumi stack history` (the summary it returns), and `history` again after refresh and destroy.
 * The harness reads the summary from the engine's events and compares output values in plain text,
 * so one `stack output --show-secrets` is enough, and `info` is never needed. Each of those commands
 * is a CLI start and, with `--show-secrets`, a passphrase key derivation (a million PBKDF2 rounds):
 * about a second of CPU per `up`, over a hundred times per `npm test`. Where no output is a secret,
 * the saved state already holds them as the command prints them ({@link savedOutputs}).
 */
function trimAutomationCommands(
  automation: Stack,
  runCli: (args: string[]) => Promise<CommandResult>,
  saved: () => Record<string, unknown> | undefined,
): void {
  const stack = automation as unknown as {
    info: () => Promise<undefined>;
    outputs: () => Promise<OutputMap>;
  };
  stack.info = async () => undefined;
  stack.outputs = async () => {
    const values =
      saved() ??
      (JSON.parse(
        (await runCli(["stack", "output", "--json", "--show-secrets", "--stack", automation.name])).stdout ||
          "{}",
      ) as Record<string, unknown>);
    return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value, secret: false }]));
  };
}

// What `pulumi stack export` prints on the file backend, from the file it prints it from: the stack's
// checkpoint (`{version, features?, checkpoint: {latest}}`) holds the deployment as the export's
// `deployment` (backend/diy ExportDeployment). Reading it saves a CLI start (0.4 s of CPU; a run
// exported about ninety times). Anything else (another backend, a compressed or absent file, no
// deployment yet) is undefined: the caller asks the CLI.
function savedState(
  stack: Pick<TestStack, "backendUrl" | "projectName" | "stackName">,
): StackState | undefined {
  if (!stack.backendUrl.startsWith("file://")) return undefined;
  const file = path.join(
    stack.backendUrl.slice("file://".length),
    ".pulumi",
    "stacks",
    stack.projectName,
    `${stack.stackName}.json`,
  );
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const saved = JSON.parse(text) as {
    version?: number;
    features?: unknown;
    checkpoint?: { latest?: StackState["deployment"] | null };
  };
  const latest = saved.checkpoint?.latest;
  if (typeof saved.version !== "number" || latest === undefined || latest === null) return undefined;
  return {
    version: saved.version,
    ...(saved.features === undefined ? {} : { features: saved.features }),
    deployment: latest,
  };
}

// The key that marks a secret (and an asset, archive or resource reference) in a state's property
// values: such outputs need the CLI to decrypt or print them.
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";

/**
 * The stack's outputs as `pulumi stack output --json` prints them, from the saved state when none of
 * them is a secret (or another special value): after every up the Automation API asks the CLI, which
 * must derive the passphrase's key (a million PBKDF2 rounds, 0.6 s of CPU) whether or not it needs it.
 */
function savedOutputs(
  stack: Pick<TestStack, "backendUrl" | "projectName" | "stackName">,
): Record<string, unknown> | undefined {
  const root = savedState(stack)?.deployment.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
  const outputs = root?.outputs ?? {};
  if (root === undefined || JSON.stringify(outputs).includes(SIGNATURE_KEY)) return undefined;
  return outputs;
}

/** Output values with secrets in plain text, as tests compare them. */
function plainOutputs(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([key, o]) => [key, o.value]));
}

/**
 * A stack of a program on a private local backend (or the backend of {@link TestStackOptions.backendUrl}), driven through the Automation API (`LocalWorkspace`
 * and `Stack` of `@pulumi/pulumi/automation`) with the CLI of the e2e global setup.
 * Create it with {@link createStack} or {@link withStack}; always {@link TestStack.dispose} it.
 */
export class TestStack {
  /** Temp dir holding `project/` (Pulumi.yaml, stack config), `state/` and `home/`. */
  readonly workDir: string;
  readonly projectDir: string;
  readonly stackName: string;
  readonly projectName: string;
  readonly binDir: string;
  /** The state backend's URL (`PULUMI_BACKEND_URL`): `file://…/state` unless the options named one. */
  readonly backendUrl: string;
  /** The environment every command runs with (offline settings + the stack's `env`). */
  readonly env: Record<string, string>;
  /** The Automation API stack behind this one, for what the harness does not wrap (tags, history, …). */
  readonly automation: Stack;
  private readonly policyPacks: string[];
  private readonly timeoutMs: number;
  private readonly destroyOnDispose: boolean;
  private disposed = false;

  /** @internal use {@link createStack}. */
  constructor(init: {
    workDir: string;
    projectDir: string;
    stackName: string;
    projectName: string;
    binDir: string;
    backendUrl: string;
    env: Record<string, string>;
    automation: Stack;
    policyPacks: string[];
    timeoutMs: number;
    destroyOnDispose: boolean;
  }) {
    this.workDir = init.workDir;
    this.projectDir = init.projectDir;
    this.stackName = init.stackName;
    this.projectName = init.projectName;
    this.binDir = init.binDir;
    this.backendUrl = init.backendUrl;
    this.env = init.env;
    this.automation = init.automation;
    this.policyPacks = init.policyPacks;
    this.timeoutMs = init.timeoutMs;
    this.destroyOnDispose = init.destroyOnDispose;
  }

  /**
   * Runs a `pulumi` command the Automation API has no method for, in the project dir (`--stack` is not
   * added).
   * @example
   * await stack.run(["state", "delete", "--all", "--yes", "--stack", stack.stackName]);
   */
  run(
    args: string[],
    options: { env?: Record<string, string>; allowFailure?: boolean } = {},
  ): Promise<CommandResult> {
    return runPulumi(this.binDir, args, {
      cwd: this.projectDir,
      env: { ...this.env, ...options.env },
      timeoutMs: this.timeoutMs,
      ...(options.allowFailure === undefined ? {} : { allowFailure: options.allowFailure }),
    });
  }

  /**
   * Sets stack config values (secrets encrypted with the stack's passphrase), as `pulumi config set-all`
   * does: `pulumi config` reads back the same.
   * @example
   * await stack.setConfig({ "irv:baseUrl": url, "irv:token": { value: token, secret: true } });
   */
  async setConfig(config: Record<string, ConfigValue>): Promise<void> {
    // Plain text goes straight into the stack's settings file, as the CLI would store it
    // (stack-settings.ts): a CLI start saved per call, over a hundred per `npm test`. Secrets need the
    // passphrase's key, so the CLI encrypts them; it does the whole call when the file can't be written.
    const plain: Record<string, string> = {};
    const secrets: Record<string, ConfigValue> = {};
    for (const [key, v] of Object.entries(config)) {
      if (typeof v === "string" || v.secret !== true) plain[key] = typeof v === "string" ? v : v.value;
      else secrets[key] = v;
    }
    const written = Object.keys(plain).length > 0 && writePlainConfig(this, plain);
    const viaCli = written ? secrets : config;
    if (Object.keys(viaCli).length === 0) return;
    await this.bounded("`pulumi config set-all`", () => this.automation.setAllConfig(configMap(viaCli)));
  }

  /**
   * Removes stack config keys, as `pulumi config rm-all` does.
   * @example
   * await stack.removeConfig("irv:token");
   */
  async removeConfig(...keys: string[]): Promise<void> {
    // Removing needs no key, secret or not: the settings file is edited as the CLI would, a start saved.
    if (keys.length === 0 || removeStoredConfig(this, keys)) return;
    await this.bounded("`pulumi config rm-all`", () => this.automation.removeAllConfig(keys));
  }

  /**
   * `pulumi preview` (with the stack's and this call's policy packs).
   * @example
   * await stack.preview({ args: ["--expect-no-changes"] });
   */
  preview(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("preview", options);
  }

  /**
   * `pulumi up` without a preview (with policy packs); the result carries the stack outputs.
   * @example
   * const { outputs } = await stack.up();
   */
  up(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("up", options);
  }

  /**
   * `pulumi refresh` without a preview; the result carries the stack outputs.
   * @example
   * summary((await stack.refresh()).events)?.resourceChanges; // { same: 2 }
   */
  refresh(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("refresh", options);
  }

  /**
   * `pulumi destroy` without a preview.
   * @example
   * const result = await stack.destroy({ allowFailure: true });
   */
  destroy(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("destroy", options);
  }

  /**
   * Stack outputs with secrets in plain text.
   * @example
   * const { uid } = await stack.outputs();
   */
  async outputs(): Promise<Record<string, unknown>> {
    return plainOutputs(await this.bounded("`pulumi stack output`", () => this.automation.outputs()));
  }

  /**
   * The stack's state as `pulumi stack export` prints it. Secrets stay encrypted unless `showSecrets`
   * (the Automation API's `exportStack` always decrypts them, so the plain export runs the command).
   * @example
   * const state = await stack.exportState();
   * state.deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/irv:Group");
   */
  async exportState(options: { showSecrets?: boolean } = {}): Promise<StackState> {
    if (options.showSecrets === true) {
      return this.bounded("`pulumi stack export --show-secrets`", () => this.automation.exportStack());
    }
    const saved = savedState(this);
    if (saved !== undefined) return saved;
    const r = await this.run(["stack", "export", "--stack", this.stackName]);
    return JSON.parse(r.stdout) as StackState;
  }

  /**
   * Resources of the exported state, without the stack and provider entries.
   * @example
   * expect(await stack.resources()).toHaveLength(60);
   */
  async resources(): Promise<StateResource[]> {
    const state = await this.exportState();
    return (state.deployment.resources ?? []).filter(
      (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
    );
  }

  /**
   * Deletes the stack's temp dirs (state, project, PULUMI_HOME). With `destroyOnDispose`, destroys
   * whatever the stack still has first. Safe to call twice; the temp dirs go even when destroy fails,
   * and the destroy error is then rethrown.
   * @example
   * afterAll(() => stack.dispose());
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    let failure: unknown;
    try {
      // The resources of a test stack live on the test's own emulator, which goes with it: a destroy
      // here would cost an engine run per stack and pin nothing that the tests' own destroys don't.
      if (!this.destroyOnDispose) return;
      const state = await this.exportState();
      if ((state.deployment.resources ?? []).length > 0) await this.destroy();
    } catch (err) {
      failure = err;
    } finally {
      // A plugin the engine stopped without waiting may still be writing under PULUMI_HOME or the
      // state dir for a moment: Node retries ENOTEMPTY and EBUSY rather than fail the dispose
      // (the CI run of 2026-11-28 failed drift.test.ts's afterAll this way, every test green).
      if (!keepTempDirs) rmSync(this.workDir, REMOVE_TREE);
    }
    if (failure !== undefined) throw failure;
  }

  /** A workspace command the Automation API cannot interrupt, bounded all the same. */
  private bounded<T>(what: string, work: () => Promise<T>): Promise<T> {
    return withDeadline(what, this.timeoutMs, () => "", work, 0);
  }

  private async operation(op: Operation, options: OperationOptions): Promise<OperationResult> {
    const extra = options.args ?? [];
    const flags = flagOptions(op, extra);
    const events: EngineEvent[] = [];
    const output = collectOutput();
    const started = Date.now();
    // The engine's last event (the summary) comes just before the CLI exits; what the Automation API
    // does after that (`stack output`, `stack history`) is not part of the operation's duration.
    let lastEventAt = started;
    const common = {
      color: "never" as const,
      onEvent: (event: EngineEvent) => {
        events.push(event);
        lastEventAt = Date.now();
      },
      onOutput: output.onOutput,
      onError: output.onError,
    };
    const withPolicies = op === "preview" || op === "up";
    const policies = withPolicies
      ? {
          policyPacks: [...this.policyPacks, ...(options.policyPacks ?? [])].map((p) => path.resolve(p)),
          policyPackConfigs: (options.policyPackConfigs ?? []).map((p) => path.resolve(p)),
        }
      : {};
    // The workspace's environment reaches every command; an operation's own `env` is added for its run.
    const workspace = this.automation.workspace;
    const baseEnv = workspace.envVars;
    workspace.envVars = { ...baseEnv, ...options.env };
    let exitCode = 0;
    let outputs: Record<string, unknown> | undefined;
    try {
      await withDeadline(
        `\`pulumi ${[op, ...extra].join(" ")}\``,
        this.timeoutMs,
        output.all,
        async (signal) => {
          const opts = { ...common, ...flags, ...policies, signal };
          if (op === "preview") await this.automation.preview(opts);
          else if (op === "up") outputs = plainOutputs((await this.automation.up(opts)).outputs);
          else if (op === "refresh") await this.automation.refresh(opts);
          else await this.automation.destroy(opts);
        },
      ).catch((err: unknown) => {
        const code = exitCodeOf(err);
        if (code === undefined) throw err;
        exitCode = code;
      });
    } finally {
      workspace.envVars = baseEnv;
    }
    const result: OperationResult = {
      args: [op, ...extra],
      exitCode,
      stdout: output.stdout(),
      stderr: output.stderr(),
      durationMs: (events.length > 0 ? lastEventAt : Date.now()) - started,
      events,
    };
    if (exitCode !== 0) {
      if (options.allowFailure === true) return result;
      throw new PulumiCommandError(result);
    }
    if (op === "refresh") outputs = await this.outputs();
    if (outputs !== undefined) result.outputs = outputs;
    return result;
  }
}

/**
 * Creates a fresh stack for a program on a private local backend (own temp dir, state, PULUMI_HOME,
 * passphrase) through the Automation API, and sets its config. Dispose it when done
 * (`afterAll(() => stack.dispose())`). A setup that hangs fails within two minutes, naming the step.
 * @example
 * const stack = await createStack({
 *   program: "examples/quickstart",
 *   config: { "irv:baseUrl": emulator.baseUrl, "irv:token": { value: token, secret: true } },
 *   env: { IRV_AUTH_URL: emulator.authUrl },
 * });
 * const up = await stack.up();
 * expect(up.outputs?.groupUid).toMatch(/^[0-9a-f]{40}\//);
 * await stack.dispose();
 */
export async function createStack(options: TestStackOptions): Promise<TestStack> {
  const binDir = options.binDir ?? pulumiBinDir();
  const workDir = mkdtempSync(path.join(tmpdir(), "irv-e2e-"));
  let step = "finding the Pulumi CLI";
  try {
    return await withDeadline(
      () => `createStack (${step})`,
      options.setupTimeoutMs ?? SETUP_TIMEOUT_MS,
      () => "",
      async () => {
        const command = await pulumiCommand(binDir);
        const projectDir = path.join(workDir, "project");
        const stateDir = path.join(workDir, "state");
        const homeDir = path.join(workDir, "home");
        for (const dir of [projectDir, stateDir, homeDir]) mkdirSync(dir);
        step = "reading the program's Pulumi.yaml";
        const projectSettings = await programProjectSettings(options.program, options.projectName, command);
        const env = {
          ...pulumiEnv({
            binDir,
            stateDir,
            homeDir,
            ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
          }),
          ...(options.backendUrl === undefined ? {} : { PULUMI_BACKEND_URL: options.backendUrl }),
          ...(options.checkpoints === true ? {} : { PULUMI_SKIP_CHECKPOINTS: "true" }),
          ...options.env,
        };
        const stackName = options.stackName ?? "test";
        step = "`pulumi stack init`";
        const automation = await LocalWorkspace.createStack(
          { stackName, workDir: projectDir },
          { pulumiCommand: command, pulumiHome: homeDir, envVars: env, projectSettings },
        );
        step = "`pulumi config set-all`";
        const stack = new TestStack({
          workDir,
          projectDir,
          stackName,
          projectName: projectSettings.name,
          binDir,
          backendUrl: env.PULUMI_BACKEND_URL ?? `file://${stateDir}`,
          env,
          automation,
          policyPacks: options.policyPacks ?? [],
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          destroyOnDispose: options.destroyOnDispose === true,
        });
        trimAutomationCommands(
          automation,
          (args) => stack.run(args),
          () => savedOutputs(stack),
        );
        await stack.setConfig(options.config ?? {});
        return stack;
      },
      0,
    );
  } catch (err) {
    if (!keepTempDirs) rmSync(workDir, REMOVE_TREE);
    throw err;
  }
}

/**
 * Runs `fn` with a fresh stack and always disposes it (temp dirs; a destroy first with
 * `destroyOnDispose`), even when `fn` throws.
 * @example
 * await withStack({ program: fixture("smoke-program"), config: { text: "hi" } }, async (stack) => {
 *   expect((await stack.up()).outputs?.text).toBe("hi");
 * });
 */
export async function withStack<T>(
  options: TestStackOptions,
  fn: (stack: TestStack) => Promise<T>,
): Promise<T> {
  const stack = await createStack(options);
  let result: T;
  try {
    result = await fn(stack);
  } catch (err) {
    // Keep the test's own failure as the error; a cleanup failure on top of it is only reported.
    await stack
      .dispose()
      .catch((cleanup: unknown) => console.error("withStack: dispose failed too:", cleanup));
    throw err;
  }
  await stack.dispose();
  return result;
}
