// Where the dynamic-provider process spends its CPU (issue 15), frame by frame.
//
// The scale program's refresh and destroy of SIZE resources on pulumi-irv and on the HTTP floor
// (noop-http: do-nothing providers that make the same request, the denominator of issue 47's goal), each run under V8's sampling profiler
// (support/cpu-profile-preload.cjs through NODE_OPTIONS in the command's environment), then the top
// self-time frames of each, grouped by function and by package.
//
// Run: npm run bench -- provider-profile [--size=N] [--top=N] (size default 900, rounded down to a
// multiple of 3). Profiles stay in bench/out/profiles/<mode>-<step>/ for Chrome DevTools or
// speedscope. It prints its tables and writes no result: RESULTS.md has no section for it.
// Only when named: its output is a diagnosis, not a figure
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startHttpFloorServer } from "./support/http-floor-server.ts";
import { ms, numberOption, OUT_DIR, progress, ROOT, runBench, table } from "./support/index.ts";

const per = Math.max(1, Math.floor(numberOption("size", "IRV_BENCH_PROFILE_SIZE", 900) / 3));
const TOP = numberOption("top", "IRV_BENCH_PROFILE_TOP", 25);
const PROFILES = path.join(OUT_DIR, "profiles");
const PRELOAD = path.join(ROOT, "bench", "support", "cpu-profile-preload.cjs");

/** The parts of a V8 `.cpuprofile` read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

interface Frame {
  name: string;
  where: string;
  group: string;
}

// A script URL as a short place: the package under node_modules, else the path in this repository.
function placeOf(url: string): { where: string; group: string } {
  if (url === "") return { where: "(native)", group: "(v8/native)" };
  if (url.startsWith("node:")) return { where: url, group: "node:*" };
  const file = url.replace(/^file:\/\//, "");
  const nm = file.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = file.slice(nm + "node_modules/".length);
    const parts = rest.split("/");
    const pkg = parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? rest);
    // pulumi-irv itself is linked into the program's node_modules: name its folders.
    if (pkg === "pulumi-irv") return { where: rest, group: `pulumi-irv/${parts[2] ?? ""}/${parts[3] ?? ""}` };
    return { where: rest, group: pkg };
  }
  const dist = file.indexOf("/dist/");
  if (dist >= 0) {
    const rest = file.slice(dist + 1);
    const parts = rest.split("/");
    return { where: rest, group: `pulumi-irv/${parts[1] ?? ""}/${parts[2] ?? ""}` };
  }
  return { where: path.basename(file), group: file };
}

/** Self time in ms by frame, and the total sampled time, of one profile. */
function selfTimes(profile: CpuProfile): {
  byFrame: Map<string, { frame: Frame; ms: number }>;
  totalMs: number;
} {
  const frames = new Map<number, Frame>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url);
    frames.set(node.id, {
      name: functionName || "(anonymous)",
      where: url ? `${place.where}:${lineNumber + 1}` : place.where,
      group: place.group,
    });
  }
  const byFrame = new Map<string, { frame: Frame; ms: number }>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!frame) return;
    totalMs += dt;
    const key = `${frame.name} ${frame.where}`;
    const entry = byFrame.get(key) ?? { frame, ms: 0 };
    entry.ms += dt;
    byFrame.set(key, entry);
  });
  return { byFrame, totalMs };
}

// The provider process's profile among those of the command's node processes: the one that ran the
// dynamic-provider host.
function providerProfile(dir: string): CpuProfile | undefined {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    if (profile.nodes.some((n) => n.callFrame.url.includes("cmd/dynamic-provider"))) return profile;
  }
  return undefined;
}

function report(label: string, profile: CpuProfile): void {
  const { byFrame, totalMs } = selfTimes(profile);
  const groups = new Map<string, number>();
  for (const { frame, ms: t } of byFrame.values())
    groups.set(frame.group, (groups.get(frame.group) ?? 0) + t);
  const idle = [...byFrame.values()]
    .filter(({ frame }) => frame.name === "(idle)" || frame.name === "(program)")
    .reduce((s, e) => s + e.ms, 0);
  console.log(`\n### ${label}: ${ms(totalMs)} sampled, ${ms(totalMs - idle)} not idle\n`);
  const pct = (t: number) => `${((100 * t) / totalMs).toFixed(1)} %`;
  console.log(
    table(
      ["self", "share", "group"],
      [...groups.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([g, t]) => [ms(t), pct(t), g]),
    ),
  );
  console.log("");
  console.log(
    table(
      ["self", "share", "function", "where"],
      [...byFrame.values()]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, TOP)
        .map(({ frame, ms: t }) => [ms(t), pct(t), frame.name, frame.where]),
    ),
  );
}

const httpFloor = await startHttpFloorServer();
await runBench({}, async (session) => {
  rmSync(PROFILES, { recursive: true, force: true });
  // The HTTP floor's providers find its server, a token and their code from the stack's
  // environment, as in scale.ts.
  const floorEnv = {
    IRV_HTTP_FLOOR_URL: httpFloor.url,
    IRV_HTTP_FLOOR_TOKEN: session.emu.adminToken,
    IRV_HTTP_FLOOR_MODULE: path.join(ROOT, "test", "e2e", "fixtures", "org-tree-program", "http-floor.js"),
  };
  for (const mode of ["irv", "noop-http"] as const) {
    const stack = await session.orgTree({
      stackName: `profile-${mode}`,
      mode,
      prefix: `p${mode}`,
      per,
      timeoutMs: 3_600_000,
      env: { PULUMI_SKIP_CHECKPOINTS: "true", ...(mode === "noop-http" ? floorEnv : {}) },
    });
    const up = await stack.up();
    progress(`up ${mode} ${3 * per}: ${ms(up.durationMs)}`);
    for (const step of ["refresh", "destroy"] as const) {
      const dir = path.join(PROFILES, `${mode}-${step}`);
      mkdirSync(dir, { recursive: true });
      const env = { NODE_OPTIONS: `--require ${PRELOAD}`, IRV_CPU_PROF_DIR: dir };
      const result = step === "refresh" ? await stack.refresh({ env }) : await stack.destroy({ env });
      progress(`${step} ${mode} ${3 * per}: ${ms(result.durationMs)}`);
      const profile = providerProfile(dir);
      if (profile) report(`${mode} ${step} of ${3 * per}`, profile);
      else console.log(`\n### ${mode} ${step}: no provider profile in ${dir}`);
    }
  }
});
await httpFloor.close();
