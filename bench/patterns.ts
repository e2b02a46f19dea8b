// Benchmark: identity patterns under a catastrophic pattern/value pair (issue 25 item 1).
//
// a) `(a+)+b` against n a's, whole-value match: JavaScript's backtracking RegExp (what patterns
//    were before) next to the sdk's RE2 matcher (`sdk/patterns`, re2js), same process, same values.
//    JavaScript doubles its time with each extra character; RE2 grows linearly.
// b) The emulator's STS answering an exchange for an identity whose subjectPattern is `(a+)+b`, with a
//    workload token whose subject is 4 096 a's: the goal is an answer (403, code 7) within 50 ms.
//
// Run: npm run bench -- patterns
// Options: --runs=N (IRV_BENCH_RUNS, default 5).
import type * as Sdk from "../sdk/index.ts";
import { loadDist, median, numberOption, runBench, table, timed } from "./support/index.ts";

const RUNS = numberOption("runs", "IRV_BENCH_RUNS", 5);
const PATTERN = "(a+)+b";
const GOAL_MS = 50;

/** Median of RUNS timings of a synchronous `f`. */
async function medianTime(f: () => unknown): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < RUNS; i++) t.push((await timed(f)).durationMs);
  return median(t);
}

await runBench({ pulumi: false, emulator: { host: "127.0.0.1" } }, async (session) => {
  const { matchesPattern } = await loadDist<typeof Sdk>("sdk/index.js");
  const rows: string[][] = [];
  const engines: { n: number; jsMs: number | undefined; re2Ms: number }[] = [];
  for (const n of [16, 18, 20, 22, 24, 10_000, 100_000]) {
    const value = "a".repeat(n);
    // Beyond 24 characters JavaScript takes seconds, then hours: not run.
    const jsMs =
      n <= 24 ? await medianTime(() => new RegExp(`^(?:${PATTERN})$`, "u").test(value)) : undefined;
    const re2Ms = await medianTime(() => matchesPattern(PATTERN, value));
    engines.push({ n, jsMs, re2Ms });
    rows.push([
      n.toLocaleString("en"),
      jsMs === undefined ? "not run (hours)" : `${jsMs.toFixed(1)} ms`,
      `${re2Ms.toFixed(2)} ms`,
    ]);
  }

  const { emu } = session;
  const admin = { authorization: `Bearer ${emu.adminToken}`, "content-type": "application/json" };
  const created = await fetch(`${emu.baseUrl}/iam/v2/identities/${emu.orgUid}`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ name: "hostile", claimMatch: { issuer: emu.issuerUrl, subjectPattern: PATTERN } }),
  });
  const { uid } = (await created.json()) as { uid: string };
  const minted = await fetch(`${emu.issuerUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ subject: "a".repeat(4096) }),
  });
  const { token } = (await minted.json()) as { token: string };
  const url = `${emu.authUrl}/sts/exchange?${new URLSearchParams({ aud: emu.baseUrl, identity: uid })}`;
  const stsMs: number[] = [];
  let status = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    const { value: answer, durationMs } = await timed(async () => {
      const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await answer.arrayBuffer();
      return answer;
    });
    // The first exchange also verifies the issuer's keys: left out of the median.
    if (i > 0) stsMs.push(durationMs);
    status = answer.status;
  }
  const sts = median(stsMs);

  const markdown = [
    "## Identity patterns: a catastrophic pattern/value pair (bench/patterns.ts)",
    "",
    `\`${PATTERN}\` matched against n a's (no match), median of ${RUNS}: JavaScript's RegExp (patterns before issue 25) and the sdk's RE2 matcher (re2js).`,
    "",
    table(["n", "JavaScript RegExp", "RE2 (sdk/patterns)"], rows),
    "",
    `The emulator's STS, identity \`subjectPattern: "${PATTERN}"\`, workload subject of 4,096 a's: HTTP ${status} in ${sts.toFixed(1)} ms (median of ${RUNS}; goal ≤ ${GOAL_MS} ms).`,
  ].join("\n");

  session.save({
    markdown,
    goals: { [`STS ≤ ${GOAL_MS} ms`]: sts <= GOAL_MS, "HTTP 403": status === 403 },
    data: { pattern: PATTERN, runs: RUNS, engines, stsMs, stsStatus: status },
  });
});
