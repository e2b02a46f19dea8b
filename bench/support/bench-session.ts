// What the benchmarks set up the same way, once: the Pulumi CLI (and its version for RESULTS.md), the
// machine description, the emulator of the built package (in this process, so that its CPU time is
// this process's), stacks of the e2e harness pointed at it, the emulator's counters and CPU around each
// measured command, the result file, and the clean-up. A benchmark file then holds what it measures.
import { rmSync } from "node:fs";
import path from "node:path";
import type * as Emulator from "../../emulator/index.ts";
import type { PulumiCli } from "../../scripts/pulumi-cli.ts";
import { ensurePulumiCli } from "../../scripts/pulumi-cli.ts";
import type * as Sdk from "../../sdk/index.ts";
import type * as Harness from "../../test/e2e/harness/index.ts";
import type { BenchResult, MachineInfo } from "./bench-kit.ts";
import { loadAverage, loadDist, machineInfo, progress, saveResult } from "./bench-kit.ts";
import type { Role, RoleUsage } from "./process-sampler.ts";
import { ProcessSampler } from "./process-sampler.ts";

/**
 * The route of the programs' data source (`getRole`: roles listed by name), counted apart from the
 * resources' calls.
 *
 * @example
 * const lookups = stats.requests[DATA_SOURCE_ROUTE] ?? 0;
 */
export const DATA_SOURCE_ROUTE = "GET /iam/v2/roles";

/**
 * The emulator's request counters for one command, split the way the benchmarks compare them with
 * their minimum.
 *
 * @example
 * const { resource, dataSource, rateLimited }: ApiCalls = apiCalls(emu.stats());
 */
export interface ApiCalls {
  /** Every request, refused ones included. */
  total: number;
  /** Requests the rate limit refused (429). */
  rateLimited: number;
  /** Requests of the data source ({@link DATA_SOURCE_ROUTE}). */
  dataSource: number;
  /** The rest: what the resources' operations called and the service accepted. */
  resource: number;
  /** Per `"<METHOD> <route pattern>"`, refused requests included. */
  byRoute: Record<string, number>;
}

/**
 * Splits the emulator's counters into {@link ApiCalls}.
 *
 * @example
 * apiCalls({ total: 3, rateLimited: 1, requests: { "POST /iam/v2/groups/*": 2, "GET /iam/v2/roles": 1 }, updateMasks: {} });
 * // { total: 3, rateLimited: 1, dataSource: 1, resource: 1, byRoute: … }
 */
export function apiCalls(stats: Emulator.StatsSnapshot): ApiCalls {
  const dataSource = stats.requests[DATA_SOURCE_ROUTE] ?? 0;
  return {
    total: stats.total,
    rateLimited: stats.rateLimited,
    dataSource,
    resource: stats.total - stats.rateLimited - dataSource,
    byRoute: { ...stats.requests },
  };
}

/**
 * What {@link BenchSession.measure} notes around one command.
 *
 * @example
 * const { durationMs, calls, emulatorCpuMs }: Measurement = await session.measure(() => stack.up());
 */
export interface Measurement {
  durationMs: number;
  /** CPU time of this process (the in-process emulator, plus the idle harness) during the command. */
  emulatorCpuMs: number;
  /** The emulator's counters for the command alone. */
  calls: ApiCalls;
  /** CPU and peak memory of the command's processes by role, when asked for. */
  usage?: Record<Role, RoleUsage>;
  /** The machine's load average when the command ended. */
  loadAverage: number;
}

/**
 * Options of {@link benchSession}.
 *
 * @example
 * const options: BenchSessionOptions = { pulumi: false, emulator: { host: "127.0.0.1" } };
 */
export interface BenchSessionOptions {
  /** Its result file, bench/out/<name>.json: by default the benchmark file's name (the runner's). */
  name?: string;
  /** Whether it runs Pulumi: finds the CLI and loads the e2e harness. Default true. */
  pulumi?: boolean;
  /** The in-process emulator's options (port 0 unless given), or false for none. */
  emulator?: Emulator.EmulatorOptions | false;
}

/**
 * A stack of {@link BenchSession.stack}: the harness's options without the CLI (the session's).
 *
 * @example
 * const options: BenchStackOptions = { program: dir, stackName: "native", env: plugin.env };
 */
export interface BenchStackOptions extends Omit<Harness.TestStackOptions, "binDir"> {
  /**
   * Whether closing the session destroys what the stack still holds (the default), or only deletes
   * its files: for stacks whose resources go with the in-memory emulator anyway.
   */
  destroy?: boolean;
}

/**
 * A stack of the org-tree program (test/e2e/fixtures/org-tree-program): groups in a tree of fan-out
 * 4, identities and role bindings, `per` of each unless `config` says otherwise.
 *
 * @example
 * const options: OrgTreeOptions = { stackName: "irv", mode: "irv", per: 100 };
 */
export interface OrgTreeOptions extends Omit<BenchStackOptions, "program"> {
  stackName: string;
  per: number;
  /** The program's `mode` (irv, noop, noop-full); the program's default when absent. */
  mode?: string;
  /** Prefix of the names it creates; default the stack name. */
  prefix?: string;
}

/** Default bound of one command (the harness's is 5 minutes; the large benchmarks take longer). */
const STACK_TIMEOUT_MS = 900_000;

/**
 * One benchmark's run: what it shares with the others, set up once by {@link benchSession}.
 *
 * @example
 * const session = await benchSession();
 * const stack = await session.orgTree({ stackName: "irv", mode: "irv", per: 100 });
 * const { durationMs, calls } = await session.measure(() => stack.up());
 * session.save({ markdown: "## …", goals: { "calls exact": true }, data: { durationMs, calls } });
 * await session.close();
 */
export class BenchSession {
  private readonly stacks: { stack: Harness.TestStack; destroy: boolean }[] = [];
  private adminClient: Sdk.IrvClient | undefined;

  /** Its result's name. */
  readonly name: string;
  /** The machine and versions, noted when the session started. */
  readonly machine: MachineInfo;
  private readonly pulumi: { cli: PulumiCli; harness: typeof Harness } | undefined;
  private readonly emulator: Emulator.EmulatorHandle | undefined;

  // Parameters, not parameter properties: Node's type stripping runs this file as it is.
  constructor(
    name: string,
    machine: MachineInfo,
    pulumi: { cli: PulumiCli; harness: typeof Harness } | undefined,
    emulator: Emulator.EmulatorHandle | undefined,
  ) {
    this.name = name;
    this.machine = machine;
    this.pulumi = pulumi;
    this.emulator = emulator;
  }

  /** The Pulumi CLI in use. */
  get cli(): PulumiCli {
    return this.withPulumi().cli;
  }

  /** The e2e harness (createStack, fixtureDir, summary, …). */
  get harness(): typeof Harness {
    return this.withPulumi().harness;
  }

  /** The in-process emulator. */
  get emu(): Emulator.EmulatorHandle {
    if (this.emulator === undefined)
      throw new Error(
        `${this.name}: its session was started with \`emulator: false\`, so it has no emulator`,
      );
    return this.emulator;
  }

  private withPulumi(): { cli: PulumiCli; harness: typeof Harness } {
    if (this.pulumi === undefined)
      throw new Error(
        `${this.name}: its session was started with \`pulumi: false\`, so it has no CLI nor stacks`,
      );
    return this.pulumi;
  }

  /** Stack config pointing a program at the emulator with the admin token (a secret), and `orgUid`. */
  get irvConfig(): Record<string, Harness.ConfigValue> {
    return {
      "irv:baseUrl": this.emu.baseUrl,
      "irv:token": { value: this.emu.adminToken, secret: true },
      orgUid: this.emu.orgUid,
    };
  }

  /**
   * A stack on the session's CLI, configured for the emulator (`config` adds to {@link irvConfig}),
   * each command bounded by 15 minutes unless `timeoutMs` says otherwise; closed with the session.
   *
   * @example
   * const stack = await session.stack({ program: out, stackName: "import", destroy: false });
   */
  async stack(options: BenchStackOptions): Promise<Harness.TestStack> {
    const { destroy = true, config, ...rest } = options;
    const stack = await this.harness.createStack({
      timeoutMs: STACK_TIMEOUT_MS,
      ...rest,
      binDir: this.cli.binDir,
      config: { ...this.irvConfig, ...config },
    });
    this.stacks.push({ stack, destroy });
    return stack;
  }

  /**
   * A stack of the org-tree program, the benchmarks' common shape.
   *
   * @example
   * const noop = await session.orgTree({ stackName: "noop", mode: "noop", per: 100 });
   */
  orgTree(options: OrgTreeOptions): Promise<Harness.TestStack> {
    const { per, mode, prefix, config, ...rest } = options;
    const count = String(per);
    return this.stack({
      ...rest,
      program: this.harness.fixtureDir("org-tree-program"),
      config: {
        ...(mode === undefined ? {} : { mode }),
        prefix: prefix ?? options.stackName,
        groups: count,
        identities: count,
        bindings: count,
        ...config,
      },
    });
  }

  /**
   * An admin client of the emulator (the built sdk), closed with the session.
   *
   * @example
   * const client = await session.client();
   * await client.groups.create(session.emu.orgUid, { name: "bench" });
   */
  async client(): Promise<Sdk.IrvClient> {
    if (this.adminClient === undefined) {
      const { IrvClient } = await loadDist<typeof Sdk>("sdk/index.js");
      this.adminClient = new IrvClient({ baseUrl: this.emu.baseUrl, token: this.emu.adminToken });
    }
    return this.adminClient;
  }

  /**
   * Runs one command with the emulator's counters zeroed before it, and notes its time (the
   * command's own, e.g. from spawn to exit), this process's CPU time (the emulator's), the
   * counters, the load average and, with `processes`, the CPU and peak memory of the command's
   * processes by role (bench/support/process-sampler.ts).
   *
   * @example
   * const { result, durationMs, calls } = await session.measure(() => stack.refresh());
   */
  async measure<R extends { durationMs: number }>(
    run: () => Promise<R>,
    options: { processes?: boolean } = {},
  ): Promise<Measurement & { result: R }> {
    this.emu.resetStats();
    const sampler = options.processes === true ? new ProcessSampler() : undefined;
    const cpu = process.cpuUsage();
    const result = await run();
    const used = process.cpuUsage(cpu);
    const usage = sampler?.stop();
    return {
      result,
      durationMs: result.durationMs,
      emulatorCpuMs: (used.user + used.system) / 1000,
      calls: apiCalls(this.emu.stats()),
      ...(usage === undefined ? {} : { usage }),
      loadAverage: loadAverage(),
    };
  }

  /**
   * Writes the result file (bench/out/<name>.json) with the machine noted at the start, and prints
   * the section.
   *
   * @example
   * session.save({ markdown: "## 4. Data sources\n…", goals: { "ratio ≤ 0.35": ratio <= 0.35 }, data: { ratio } });
   */
  save(result: Pick<BenchResult, "markdown" | "goals" | "data">): void {
    saveResult({ ...result, name: this.name, machine: this.machine });
  }

  /**
   * Disposes of the stacks (destroying what they hold unless made with `destroy: false`), the
   * client and the emulator. A stack that fails to go does not keep the others.
   *
   * @example
   * await session.close();
   */
  async close(): Promise<void> {
    for (const { stack, destroy } of this.stacks.splice(0)) {
      if (destroy)
        await stack.dispose().catch((err: unknown) => progress(`dispose ${stack.stackName}: ${err}`));
      else rmSync(stack.workDir, { recursive: true, force: true });
    }
    await this.adminClient?.close();
    await this.emulator?.close();
  }
}

/**
 * Starts a benchmark's session: finds the Pulumi CLI and loads the e2e harness (unless `pulumi:
 * false`: the harness needs the runner's `.ts` hook, bench/support/register-ts.mjs), describes the
 * machine, and starts the emulator of the built package (unless `emulator: false`).
 *
 * @example
 * const session = await benchSession({ pulumi: false });
 */
export async function benchSession(options: BenchSessionOptions = {}): Promise<BenchSession> {
  const name = options.name ?? path.basename(process.argv[1] ?? "bench", ".ts");
  const pulumi =
    options.pulumi === false
      ? undefined
      : {
          cli: await ensurePulumiCli({ log: progress }),
          harness: await import("../../test/e2e/harness/index.ts"),
        };
  const machine = machineInfo(pulumi?.cli.binDir);
  let emulator: Emulator.EmulatorHandle | undefined;
  if (options.emulator !== false) {
    const { startEmulator } = await loadDist<typeof Emulator>("emulator/index.js");
    emulator = await startEmulator({ port: 0, ...options.emulator });
  }
  return new BenchSession(name, machine, pulumi, emulator);
}

/**
 * Runs a benchmark in a session and closes the session however it ends.
 *
 * @example
 * await runBench({}, async (session) => {
 *   const stack = await session.orgTree({ stackName: "irv", mode: "irv", per: 10 });
 *   const { durationMs } = await session.measure(() => stack.up());
 *   session.save({ markdown: `## Up\n\n${ms(durationMs)}`, data: { durationMs } });
 * });
 */
export async function runBench(
  options: BenchSessionOptions,
  body: (session: BenchSession) => Promise<void>,
): Promise<void> {
  const session = await benchSession(options);
  try {
    await body(session);
  } finally {
    await session.close();
  }
}
