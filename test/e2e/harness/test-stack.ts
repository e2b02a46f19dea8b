import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pulumiEnv } from "../../../scripts/pulumi-cli.js";
import { type EngineEvent, readEventLog } from "./engine-events.js";
import { pulumiBinDir } from "./pulumi-bin.js";
import { type CommandResult, PulumiCommandError, runPulumi } from "./run-pulumi.js";

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
  /** Passphrase of the stack's secrets provider. Default: a fixed test value. */
  passphrase?: string;
  /** Kill any single command after this many milliseconds. Default 5 minutes. */
  timeoutMs?: number;
}

/** Options for one engine operation. */
export interface OperationOptions {
  /** Policy pack directories for this operation, added to the stack's `policyPacks`. */
  policyPacks?: string[];
  /** `--policy-pack-config` files, in the same order as the packs. */
  policyPackConfigs?: string[];
  /** Extra environment for this operation only. */
  env?: Record<string, string>;
  /** Extra CLI flags, e.g. `["--target", urn]` or `["--expect-no-changes"]`. */
  args?: string[];
  /** Resolve with the result on a non-zero exit instead of throwing {@link PulumiCommandError}. */
  allowFailure?: boolean;
}

/** The result of preview/up/refresh/destroy. */
export interface OperationResult extends CommandResult {
  /** Engine events from `--event-log` (diagnostics, resource steps, policy violations, summary). */
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
  deployment: {
    manifest?: { time: string; magic: string; version: string };
    secrets_providers?: { type: string; state?: unknown };
    resources?: StateResource[];
    [key: string]: unknown;
  };
}

/** Minimal typing of js-yaml (a dependency of @pulumi/pulumi) used to read a program's Pulumi.yaml. */
interface YamlLoader {
  load(text: string): unknown;
}

function loadYaml(text: string): unknown {
  // Resolved through @pulumi/pulumi so it is the copy that package depends on, not a guess at hoisting.
  const fromHere = createRequire(import.meta.url);
  const fromSdk = createRequire(fromHere.resolve("@pulumi/pulumi/package.json"));
  return (fromSdk("js-yaml") as YamlLoader).load(text);
}

/**
 * Writes a Pulumi.yaml for the program into `projectDir`, with `main` as an absolute path to the program.
 * Why a separate project dir: the CLI writes `Pulumi.<stack>.yaml` (config, encryption salt) next to
 * Pulumi.yaml, and tests must neither dirty the repository nor share that file between runs.
 */
function writeProjectFile(projectDir: string, program: string, projectName: string | undefined): string {
  const programPath = path.resolve(program);
  const programDir = statSync(programPath).isDirectory() ? programPath : path.dirname(programPath);
  let project: Record<string, unknown> = {};
  for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
    const file = path.join(programDir, name);
    if (existsSync(file)) {
      const parsed = loadYaml(readFileSync(file, "utf8"));
      if (parsed !== null && typeof parsed === "object") project = { ...(parsed as Record<string, unknown>) };
      break;
    }
  }
  let main = programPath;
  if (programPath === programDir && typeof project.main === "string") {
    main = path.resolve(programDir, project.main);
  }
  const name = projectName ?? (typeof project.name === "string" ? project.name : path.basename(programDir));
  const runtime = project.runtime ?? "nodejs";
  // JSON is valid YAML; the CLI reads it as Pulumi.yaml.
  const content = { ...project, name, runtime, main };
  writeFileSync(path.join(projectDir, "Pulumi.yaml"), `${JSON.stringify(content, null, 2)}\n`);
  return name;
}

function configArgs(config: Record<string, ConfigValue>): string[] {
  const args: string[] = [];
  for (const [key, v] of Object.entries(config)) {
    const { value, secret } = typeof v === "string" ? { value: v, secret: false } : v;
    args.push(secret === true ? "--secret" : "--plaintext", `${key}=${value}`);
  }
  return args;
}

/** Keep the temp dirs of disposed stacks (for debugging a failing test): `IRV_E2E_KEEP=1`. */
const keepTempDirs = process.env.IRV_E2E_KEEP === "1";

/**
 * A stack of a program on a private local backend, driven through the real Pulumi CLI.
 * Create it with {@link createStack} or {@link withStack}; always {@link TestStack.dispose} it.
 */
export class TestStack {
  /** Temp dir holding `project/` (Pulumi.yaml, stack config), `state/`, `home/` and event logs. */
  readonly workDir: string;
  readonly projectDir: string;
  readonly stackName: string;
  readonly projectName: string;
  readonly binDir: string;
  /** The environment every command runs with (offline settings + the stack's `env`). */
  readonly env: Record<string, string>;
  private readonly policyPacks: string[];
  private readonly timeoutMs: number;
  private operationCount = 0;
  private disposed = false;

  /** @internal use {@link createStack}. */
  constructor(init: {
    workDir: string;
    projectDir: string;
    stackName: string;
    projectName: string;
    binDir: string;
    env: Record<string, string>;
    policyPacks: string[];
    timeoutMs: number;
  }) {
    this.workDir = init.workDir;
    this.projectDir = init.projectDir;
    this.stackName = init.stackName;
    this.projectName = init.projectName;
    this.binDir = init.binDir;
    this.env = init.env;
    this.policyPacks = init.policyPacks;
    this.timeoutMs = init.timeoutMs;
  }

  /**
   * Runs any `pulumi` command in the project dir (`--stack` is not added).
   * @example
   * await stack.run(["stack", "ls", "--json"]);
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
   * Sets stack config values (secrets encrypted with the stack's passphrase).
   * @example
   * await stack.setConfig({ "irv:baseUrl": url, "irv:token": { value: token, secret: true } });
   */
  async setConfig(config: Record<string, ConfigValue>): Promise<void> {
    if (Object.keys(config).length === 0) return;
    await this.run(["config", "set-all", "--stack", this.stackName, ...configArgs(config)]);
  }

  /** Removes stack config keys. */
  async removeConfig(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.run(["config", "rm-all", "--stack", this.stackName, ...keys]);
  }

  /** `pulumi preview` (with the stack's and this call's policy packs). */
  preview(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("preview", [], true, options);
  }

  /** `pulumi up --skip-preview` (with policy packs); the result carries the stack outputs. */
  up(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("up", ["--yes", "--skip-preview"], true, options);
  }

  /** `pulumi refresh --skip-preview`; the result carries the stack outputs. */
  refresh(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("refresh", ["--yes", "--skip-preview"], false, options);
  }

  /** `pulumi destroy --skip-preview`. */
  destroy(options: OperationOptions = {}): Promise<OperationResult> {
    return this.operation("destroy", ["--yes", "--skip-preview"], false, options);
  }

  /**
   * Stack outputs with secrets in plain text.
   * @example
   * const { uid } = await stack.outputs();
   */
  async outputs(): Promise<Record<string, unknown>> {
    const r = await this.run(["stack", "output", "--json", "--show-secrets", "--stack", this.stackName]);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }

  /**
   * The stack's state as `pulumi stack export` prints it. Secrets stay encrypted unless `showSecrets`.
   * @example
   * const state = await stack.exportState();
   * state.deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/irv:Group");
   */
  async exportState(options: { showSecrets?: boolean } = {}): Promise<StackState> {
    const args = ["stack", "export", "--stack", this.stackName];
    if (options.showSecrets === true) args.push("--show-secrets");
    const r = await this.run(args);
    return JSON.parse(r.stdout) as StackState;
  }

  /** Resources of the exported state, without the stack and provider entries. */
  async resources(): Promise<StateResource[]> {
    const state = await this.exportState();
    return (state.deployment.resources ?? []).filter(
      (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
    );
  }

  /**
   * Destroys whatever the stack still has and deletes its temp dirs. Safe to call twice; the temp dirs
   * go even when destroy fails, and the destroy error is then rethrown.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    let failure: unknown;
    try {
      const state = await this.exportState();
      if ((state.deployment.resources ?? []).length > 0) await this.destroy();
    } catch (err) {
      failure = err;
    } finally {
      if (!keepTempDirs) rmSync(this.workDir, { recursive: true, force: true });
    }
    if (failure !== undefined) throw failure;
  }

  private async operation(
    command: "preview" | "up" | "refresh" | "destroy",
    fixedArgs: string[],
    withPolicies: boolean,
    options: OperationOptions,
  ): Promise<OperationResult> {
    this.operationCount += 1;
    const eventLog = path.join(this.workDir, `events-${this.operationCount}-${command}.jsonl`);
    const args = [
      command,
      ...fixedArgs,
      "--stack",
      this.stackName,
      "--non-interactive",
      "--color",
      "never",
      "--event-log",
      eventLog,
    ];
    const packs = withPolicies ? [...this.policyPacks, ...(options.policyPacks ?? [])] : [];
    for (const pack of packs) args.push("--policy-pack", path.resolve(pack));
    for (const cfg of options.policyPackConfigs ?? []) args.push("--policy-pack-config", path.resolve(cfg));
    args.push(...(options.args ?? []));

    // `--event-log` only exists when debug commands are enabled (the Automation API does the same).
    const env = { PULUMI_DEBUG_COMMANDS: "true", ...options.env };
    const result = await this.run(args, { env, allowFailure: true });
    const events = readEventLog(eventLog);
    const withEvents: OperationResult = { ...result, events };
    if (result.exitCode !== 0) {
      if (options.allowFailure === true) return withEvents;
      throw new PulumiCommandError(result);
    }
    if (command === "up" || command === "refresh") withEvents.outputs = await this.outputs();
    return withEvents;
  }
}

/**
 * Creates a fresh stack for a program on a private local backend (own temp dir, state, PULUMI_HOME,
 * passphrase) and sets its config. Dispose it when done (`afterAll(() => stack.dispose())`).
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
  try {
    const projectDir = path.join(workDir, "project");
    const stateDir = path.join(workDir, "state");
    const homeDir = path.join(workDir, "home");
    for (const dir of [projectDir, stateDir, homeDir]) mkdirSync(dir);
    const projectName = writeProjectFile(projectDir, options.program, options.projectName);
    const env = {
      ...pulumiEnv({
        binDir,
        stateDir,
        homeDir,
        ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
      }),
      ...options.env,
    };
    const stack = new TestStack({
      workDir,
      projectDir,
      stackName: options.stackName ?? "test",
      projectName,
      binDir,
      env,
      policyPacks: options.policyPacks ?? [],
      timeoutMs: options.timeoutMs ?? 300_000,
    });
    await stack.run(["stack", "init", stack.stackName, "--non-interactive"]);
    await stack.setConfig(options.config ?? {});
    return stack;
  } catch (err) {
    if (!keepTempDirs) rmSync(workDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Runs `fn` with a fresh stack and always disposes it (destroy + temp dirs), even when `fn` throws.
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
