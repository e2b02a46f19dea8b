// Client cold: 3,000 deletes from a fresh process through IrvClient, beside undici's dispatcher alone.
//
// The destroy of the scale benchmark (bench/scale.ts) sends one DELETE per resource from a provider
// process that starts cold: every line of the HTTP client runs unoptimized at first. This measures
// what of that is pulumi-irv's own: each sample is a new Node process that loads its client, then
// deletes COUNT groups of the in-process emulator, 8 at a time (the engine's default parallelism on
// two cores), and reports its own CPU (user + system) for the load and for the deletes. Sides, in
// alternating order per round:
//   irv client    `IrvClient.groups.delete` of the built sdk: uid check, retry loop, rate limiter,
//                 token, the dispatcher handler, error mapping;
//   undici alone  the same DELETE with the same headers through undici's `Agent.dispatch` and a
//                 handler that only gathers the answer: the floor of any undici-based client.
// The difference is pulumi-irv's code per request, the floor is undici's and Node's. Report only.
//
// Run: npm run bench -- client-cold
// Options: --count=N (IRV_BENCH_COLD_COUNT, default 3000), --rounds=N (IRV_BENCH_ROUNDS, default 7).
import { spawn } from "node:child_process";
import path from "node:path";
import {
  median,
  ms,
  numberOption,
  progress,
  ROOT,
  runBench,
  table,
  timeSteps,
  times,
} from "./support/index.ts";

const COUNT = numberOption("count", "IRV_BENCH_COLD_COUNT", 3000);
const ROUNDS = numberOption("rounds", "IRV_BENCH_ROUNDS", 7);
const PARALLEL = 8;
const SDK = path.join(ROOT, "dist", "sdk", "index.js");

type Side = "irv client" | "undici alone";
const SIDES: readonly Side[] = ["irv client", "undici alone"];

// The child: loads its client, deletes the uids it reads on stdin, prints its CPU as JSON.
const CHILD = `
const [baseUrl, token, side, parallel] = process.argv.slice(1);
const uids = (await new Promise((resolve) => { let s = ""; process.stdin.on("data", (b) => { s += b; }).on("end", () => resolve(s)); })).split("\\n").filter(Boolean);
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const start = cpu();
let del, close;
if (side === "irv client") {
  const { IrvClient } = await import(${JSON.stringify(SDK)});
  const client = new IrvClient({ baseUrl, token, allowInsecureHttp: true });
  del = (uid) => client.groups.delete(uid);
  close = () => client.close();
} else {
  const { Agent } = await import("undici");
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  const origin = new URL(baseUrl).origin;
  const headers = { authorization: "Bearer " + token, accept: "application/json" };
  del = (uid) => new Promise((resolve, reject) => {
    let status = 0;
    const chunks = [];
    agent.dispatch({ origin, path: "/iam/v2/groups/" + uid, method: "DELETE", headers, headersTimeout: 60_000, bodyTimeout: 60_000 }, {
      onRequestStart() {},
      onResponseStart(_c, s) { status = s; },
      onResponseData(_c, chunk) { chunks.push(chunk); },
      onResponseEnd() { Buffer.concat(chunks).toString(); status >= 200 && status < 300 ? resolve() : reject(new Error("HTTP " + status)); },
      onResponseError(_c, e) { reject(e); },
    });
  });
  close = () => agent.close();
}
const loaded = cpu();
let next = 0;
await Promise.all(Array.from({ length: Number(parallel) }, async () => { while (next < uids.length) await del(uids[next++]); }));
const done = cpu();
await close();
process.stdout.write(JSON.stringify({ loadMs: loaded - start, deletesMs: done - loaded }));
`;

interface Sample {
  durationMs: number;
  loadMs: number;
  deletesMs: number;
}

function runChild(side: Side, baseUrl: string, token: string, uids: readonly string[]): Promise<Sample> {
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", CHILD, baseUrl, token, side, String(PARALLEL)],
    { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => {
    out += b.toString();
  });
  child.stderr.on("data", (b: Buffer) => {
    err += b.toString();
  });
  child.stdin.end(uids.join("\n"));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`${side} exited ${code}: ${err}`));
      resolve({
        durationMs: performance.now() - started,
        ...(JSON.parse(out) as Omit<Sample, "durationMs">),
      });
    });
  });
}

await runBench({ pulumi: false }, async (session) => {
  const { emu } = session;
  const load = session.machine.loadAverage;
  progress(`client cold: ${COUNT} deletes per sample, ${ROUNDS} rounds (load average ${load})`);
  const client = await session.client();
  let made = 0;
  const seed = async (): Promise<string[]> => {
    const uids: string[] = [];
    for (let i = 0; i < COUNT; i += 100) {
      const batch = Array.from({ length: Math.min(100, COUNT - i) }, () =>
        client.groups.create(emu.orgUid, { name: `cold-${made++}` }),
      );
      uids.push(...(await Promise.all(batch)).map((g) => g.uid));
    }
    return uids;
  };
  const samples = (
    await timeSteps({
      rounds: ROUNDS,
      steps: [{ key: "deletes" }],
      sides: SIDES,
      run: async (_step, side) => runChild(side, emu.baseUrl, emu.adminToken, await seed()),
      note: (s) => `load ${ms(s.loadMs)}, deletes ${ms(s.deletesMs)} CPU`,
    })
  ).deletes as Record<Side, Sample[]>;
  const med = (side: Side, f: (s: Sample) => number) => median(samples[side].map(f));
  const [irv, floor] = SIDES as [Side, Side];
  const perRequestUs = (side: Side) => (med(side, (s) => s.deletesMs) * 1000) / COUNT;
  const rows = SIDES.map((side) => [
    side,
    ms(med(side, (s) => s.loadMs)),
    ms(med(side, (s) => s.deletesMs)),
    `${perRequestUs(side).toFixed(0)} µs`,
    ms(med(side, (s) => s.loadMs + s.deletesMs)),
  ]);
  const ratio = (f: (s: Sample) => number) => times(med(irv, f) / med(floor, f));
  const markdown = [
    "## Client cold: 3,000 deletes from a fresh process, IrvClient beside undici alone (bench/client-cold.ts)",
    "",
    `\`npm run bench -- client-cold\` (${ROUNDS} rounds, alternating order; 1-minute load average ${load} at the start).`,
    `Each sample is a new Node process that loads its client and deletes ${COUNT} groups of the in-process emulator,`,
    `${PARALLEL} at a time, as the dynamic-provider process does in a destroy; CPU is the child's own (user + system),`,
    "median of the rounds. `undici alone` sends the same DELETE through undici's `Agent.dispatch` with a handler that",
    "only gathers the answer: what any undici-based client pays. The difference is pulumi-irv's own code.",
    "",
    table(["side", "load CPU", "deletes CPU", "per request", "load + deletes"], rows),
    "",
    `IrvClient ÷ undici alone: deletes ${ratio((s) => s.deletesMs)}, load + deletes ${ratio((s) => s.loadMs + s.deletesMs)}; pulumi-irv's own code ${(perRequestUs(irv) - perRequestUs(floor)).toFixed(0)} µs a request cold. Report only: no goal.`,
  ].join("\n");
  session.save({ markdown, data: { count: COUNT, rounds: ROUNDS, parallel: PARALLEL, load, samples } });
});
