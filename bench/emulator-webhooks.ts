// Emulator webhooks: delivery latency, and a write's latency with dead sinks ÷ without (issue 46)
//
// One emulator in a child process (the built CLI), the sinks and the writer in this process, so that
// a write's answer and a sink's receipt are read on one clock:
// - delivery latency: sequential PATCHes of a group with one subscription to a live sink; for each,
//   the time from the write's answer (its body read) to the sink's receipt of its event; p50 and p99.
// - write latency with 5 subscriptions to a dead sink (connections refused, so each delivery is
//   retried with backoff in the background) ÷ with none: the same sequential PATCHes, the two
//   alternating over rounds; medians per side.
//
// Run after a build: `npm run bench -- emulator-webhooks` (or `node bench/emulator-webhooks.ts`).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { startWithReadyLine } from "./support/index.ts";

const WRITES = 400;
const ROUNDS = 5;
const cli = fileURLToPath(new URL("../emulator/dist/cli.js", import.meta.url));
const load0 = loadavg()[0] ?? 0;

const emu = await startWithReadyLine([cli, "--port", "0", "--admin-token", "bench-admin"]);
const info = JSON.parse(emu.line) as { baseUrl: string; orgUid: string };
const pool = new Pool(info.baseUrl, { connections: 1 });
const admin = { authorization: "Bearer bench-admin", "content-type": "application/json" };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await pool.request({
    method: method as "POST",
    path,
    headers: admin,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`);
  return text === "" ? {} : (JSON.parse(text) as Record<string, string>);
};

// The live sink: the receipt time of each event, by the description the write set.
const received = new Map<string, number>();
const waiting = new Map<string, () => void>();
const sink = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = performance.now();
    res.writeHead(200).end();
    const description = (JSON.parse(Buffer.concat(chunks).toString()) as { body?: { description?: string } })
      .body?.description;
    if (description === undefined) return;
    received.set(description, at);
    waiting.get(description)?.();
  });
});
await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/`;
// A dead sink: a port nothing listens on.
const dead = createServer();
await new Promise<void>((r) => dead.listen(0, "127.0.0.1", r));
const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/`;
await new Promise<void>((r) => dead.close(() => r()));

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};
const median = (xs: number[]) => percentile(xs, 50);

// Delivery latency.
const live = await call("POST", `/iam/v2beta1/groups/${info.orgUid}`, { name: "webhooks-live" });
const liveSub = await call("POST", `/events/v2beta1/subscriptions/${live.uid}`, { sink: sinkUrl });
const latencies: number[] = [];
for (let i = 0; i < WRITES + 50; i++) {
  const description = `live-${i}`;
  const arrived = new Promise<void>((r) => waiting.set(description, r));
  await call("PATCH", `/iam/v2beta1/groups/${live.uid}`, { description });
  const answered = performance.now();
  await arrived;
  waiting.delete(description);
  // The first 50 warm up (JIT, connections).
  if (i >= 50) latencies.push((received.get(description) ?? Number.NaN) - answered);
}
await call("DELETE", `/events/v2beta1/subscriptions/${liveSub.uid}`);

// Write latency: 5 subscriptions to a dead sink ÷ none, alternating.
const target = await call("POST", `/iam/v2beta1/groups/${info.orgUid}`, { name: "webhooks-dead" });
const writes = async (tag: string): Promise<number[]> => {
  const times: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const t0 = performance.now();
    await call("PATCH", `/iam/v2beta1/groups/${target.uid}`, { description: `${tag}-${i}` });
    times.push(performance.now() - t0);
  }
  return times;
};
await writes("warm");
const sides: Record<"none" | "dead", number[]> = { none: [], dead: [] };
for (let round = 0; round < ROUNDS; round++) {
  sides.none.push(median(await writes(`none-${round}`)));
  const subs = [];
  for (let s = 0; s < 5; s++)
    subs.push(await call("POST", `/events/v2beta1/subscriptions/${target.uid}`, { sink: deadUrl }));
  sides.dead.push(median(await writes(`dead-${round}`)));
  for (const s of subs) await call("DELETE", `/events/v2beta1/subscriptions/${s.uid}`);
}
const stats = JSON.parse(
  await (await fetch(`${info.baseUrl}/_emulator/stats`, { headers: admin })).text(),
) as { deliveries: Record<string, number> };

await pool.close();
sink.close();
emu.child.kill("SIGTERM");

const f = (ms: number) => `${ms.toFixed(2)} ms`;
const [none, withDead] = [median(sides.none), median(sides.dead)];
console.log(
  `Load average ${load0.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)} (2 cores, shared with other work unless it reads near 0).`,
);
console.log(
  `Delivery latency, from a write's answer to the sink's receipt (${WRITES} sequential PATCHes, one subscription, binary-mode CloudEvent with its token): p50 ${f(median(latencies))}, p99 ${f(percentile(latencies, 99))}.`,
);
console.log(
  `Write latency (sequential PATCH, median of each round's median, ${ROUNDS} alternating rounds of ${WRITES}): no subscription ${f(none)}, 5 subscriptions to a dead sink ${f(withDead)}: ${(withDead / none).toFixed(2)}×.`,
);
console.log(
  `Deliveries of the run: ${stats.deliveries.queued} queued, ${stats.deliveries.attempts} attempts, ${stats.deliveries.accepted} accepted, ${stats.deliveries.failed} failed, ${stats.deliveries.cancelled} cancelled.`,
);
