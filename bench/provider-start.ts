// Benchmark 5: how long the provider takes to start, i.e. what module loading costs.
//
// a) Loading `pulumi-irv/internal/runtime` (what the serialized stub requires on the first operation), timed
//    inside a fresh `node` started in the program directory, next to loading `@pulumi/pulumi` (which
//    the dynamic-provider plugin loads anyway) for scale.
// b) The real plugin: the engine's `pulumi-resource-pulumi-nodejs` started in the program directory,
//    timed until it prints its port (ready), then driven over gRPC as the engine does — Configure,
//    Check and Create of a Group (a POST to the emulator) — and a second Create (steady state). The
//    same sequence with a no-op provider (a `create` that returns its inputs) is the floor: the ratio
//    is irv / no-op for "first Create answered, from spawn".
//
// Run: npm run bench -- provider-start
// Options: --runs=N (IRV_BENCH_RUNS, default 7).
import type { ChildProcess } from "node:child_process";
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import type * as Stub from "../provider/stub/index.ts";
import { pulumiEnv } from "../scripts/pulumi-cli.ts";
import { fixtureDir } from "../test/e2e/harness/index.ts";
import {
  loadDist,
  median,
  medianOf,
  ms,
  numberOption,
  progress,
  ROOT,
  runBench,
  table,
  timeSteps,
  times,
} from "./support/index.ts";

const RUNS = numberOption("runs", "IRV_BENCH_RUNS", 7);
const PROGRAM_DIR = fixtureDir("org-tree-program");

// gRPC stubs as @pulumi/pulumi ships them (CommonJS, untyped here).
const fromSdk = createRequire(
  createRequire(path.join(ROOT, "package.json")).resolve("@pulumi/pulumi/package.json"),
);
// biome-ignore lint/suspicious/noExplicitAny: generated protobuf/grpc modules without usable types here
type Any = any;
const grpc: Any = fromSdk("@grpc/grpc-js");
const providerRpc: Any = fromSdk("./proto/provider_grpc_pb");
const providerPb: Any = fromSdk("./proto/provider_pb");
const { Struct }: Any = fromSdk("google-protobuf/google/protobuf/struct_pb");
const { serializeFunction } = fromSdk("./runtime/closure/serializeClosure") as {
  serializeFunction: (f: () => unknown, o: { allowSecrets: boolean }) => Promise<{ text: string }>;
};

/** a) Milliseconds `require(specifier)` takes in a fresh node started in the program directory. */
function requireTime(specifier: string): number {
  const code = `const t = performance.now(); require(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const r = spawnSync(process.execPath, ["-e", code], { cwd: PROGRAM_DIR, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`node -e require(${specifier}) failed: ${r.stderr}`);
  return Number(r.stdout);
}

/** Wall time of a whole `node -e <code>` process in the program directory. */
function processTime(code: string): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["-e", code], { cwd: PROGRAM_DIR, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`node -e failed: ${r.stderr}`);
  return performance.now() - started;
}

interface PluginTimes {
  ready: number;
  configure: number;
  firstCheck: number;
  firstCreate: number;
  secondCreate: number;
}

const call = (client: Any, method: string, request: Any): Promise<Any> =>
  new Promise((resolve, reject) => {
    client[method](request, (err: Error | null, res: Any) => (err ? reject(err) : resolve(res)));
  });

/** b) Starts the dynamic-provider plugin and drives Configure → Check → Create → Create. */
async function pluginRun(
  binDir: string,
  env: Record<string, string>,
  provider: string,
  type: string,
  config: Record<string, string>,
  props: (i: number) => Record<string, unknown>,
): Promise<PluginTimes> {
  const started = performance.now();
  const child: ChildProcess = spawn(path.join(binDir, "pulumi-resource-pulumi-nodejs"), ["127.0.0.1:1"], {
    cwd: PROGRAM_DIR,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => {
    stderr += b.toString();
  });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (b: Buffer) => {
        out += b.toString();
        const line = out.split("\n")[0];
        if (out.includes("\n") && line) resolve(line.trim());
      });
      child.on("exit", (code) => reject(new Error(`plugin exited with ${code}: ${stderr}`)));
    });
    const ready = performance.now() - started;
    const client = new providerRpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    const urn = (name: string) => `urn:pulumi:bench::irv-org-tree::pulumi-nodejs:dynamic/${type}::${name}`;

    const configure = new providerPb.ConfigureRequest();
    configure.setArgs(Struct.fromJavaScript(config));
    await call(client, "configure", configure);
    const configured = performance.now() - started;

    const check = new providerPb.CheckRequest();
    check.setUrn(urn("r0"));
    check.setOlds(Struct.fromJavaScript({}));
    check.setNews(Struct.fromJavaScript({ __provider: provider, ...props(0) }));
    await call(client, "check", check);
    const checked = performance.now() - started;

    const create = async (i: number) => {
      const req = new providerPb.CreateRequest();
      req.setUrn(urn(`r${i}`));
      req.setProperties(Struct.fromJavaScript({ __provider: provider, ...props(i) }));
      const res = await call(client, "create", req);
      if (!res.getId()) throw new Error("create returned no id");
    };
    await create(0);
    const firstCreate = performance.now() - started;
    const before = performance.now();
    await create(1);
    const secondCreate = performance.now() - before;
    client.close();
    return { ready, configure: configured, firstCheck: checked, firstCreate, secondCreate };
  } finally {
    child.kill("SIGTERM");
  }
}

await runBench({}, async (session) => {
  const { cli, emu } = session;
  const { stubFor } = await loadDist<typeof Stub>("provider/stub/index.js");
  const env = pulumiEnv({ binDir: cli.binDir, stateDir: "/nonexistent", homeDir: "/nonexistent" });

  // a) Module loading.
  const loads: Record<string, number[]> = { runtime: [], sdk: [], nodeOnly: [], nodeRuntime: [] };
  for (let i = 0; i < RUNS; i++) {
    loads.runtime?.push(requireTime("pulumi-irv/internal/runtime"));
    loads.sdk?.push(requireTime("@pulumi/pulumi"));
    loads.nodeOnly?.push(processTime("0"));
    loads.nodeRuntime?.push(processTime('require("pulumi-irv/internal/runtime")'));
  }
  const m = (k: string) => median(loads[k] ?? []);
  progress(`require pulumi-irv/internal/runtime ${ms(m("runtime"))}, @pulumi/pulumi ${ms(m("sdk"))}`);

  // b) The plugin, irv vs no-op, alternating; a run's time is its first Create's.
  const irvProvider = (await serializeFunction(() => stubFor("Group"), { allowSecrets: false })).text;
  const noopProvider = (
    await serializeFunction(
      () => ({
        async create(inputs: Record<string, unknown>) {
          return { id: globalThis.crypto.randomUUID(), outs: inputs };
        },
      }),
      { allowSecrets: false },
    )
  ).text;
  const config = { "irv:baseUrl": emu.baseUrl, "irv:token": emu.adminToken };
  const props = (round: number) => (n: number) => ({ parentUid: emu.orgUid, name: `start-${round}-${n}` });
  const samples = await timeSteps({
    rounds: RUNS,
    steps: [{ key: "start" }],
    sides: ["irv", "noop"] as const,
    run: async (_step, mode, round) => {
      const t =
        mode === "irv"
          ? await pluginRun(cli.binDir, env, irvProvider, "irv:Group", config, props(round))
          : await pluginRun(cli.binDir, env, noopProvider, "noop:Group", {}, props(round));
      return { ...t, durationMs: t.firstCreate };
    },
    note: (t) => `to the first create (ready ${ms(t.ready)}, second create ${ms(t.secondCreate)})`,
  });
  const runs = samples.start as Record<"irv" | "noop", PluginTimes[]>;
  const med = (mode: "irv" | "noop", k: keyof PluginTimes) => medianOf(runs[mode], (r) => r[k]);
  const ratio = med("irv", "firstCreate") / med("noop", "firstCreate");
  const pluginRow = (label: string, k: keyof PluginTimes) => [
    label,
    ms(med("irv", k)),
    ms(med("noop", k)),
    times(med("irv", k) / med("noop", k)),
  ];
  const markdown = [
    "## 5. Provider start",
    "",
    `Median of ${RUNS} fresh processes each.`,
    "",
    "Module loading, timed inside `node` started in the program directory:",
    "",
    table(
      ["what", "median"],
      [
        [
          '`require("pulumi-irv/internal/runtime")` (what the stub loads on the first operation)',
          ms(m("runtime")),
        ],
        ['`require("@pulumi/pulumi")` (loaded by the plugin anyway, for scale)', ms(m("sdk"))],
        ["whole `node -e 0` process", ms(m("nodeOnly"))],
        ["whole `node -e 'require(\"pulumi-irv/internal/runtime\")'` process", ms(m("nodeRuntime"))],
      ],
    ),
    "",
    "The dynamic-provider plugin (`pulumi-resource-pulumi-nodejs`, as the engine starts it), driven over",
    "gRPC like the engine: times from spawn, except the last row. The no-op provider's `create` returns",
    "its inputs; ours loads `pulumi-irv/internal/runtime` in the first Check (through `configure`) and POSTs to",
    "the emulator in Create.",
    "",
    table(
      ["milestone", "pulumi-irv", "no-op provider", "ratio"],
      [
        pluginRow("plugin ready (port printed)", "ready"),
        pluginRow("Configure answered", "configure"),
        pluginRow("first Check answered", "firstCheck"),
        pluginRow("**first Create answered**", "firstCreate"),
        pluginRow("a second Create (steady state, alone)", "secondCreate"),
      ],
    ),
  ].join("\n");
  session.save({
    markdown,
    data: { runs: RUNS, loads, plugin: runs, firstCreateRatio: ratio },
  });
});
