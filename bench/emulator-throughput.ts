// Bench: the emulator's GET throughput against a bare node:http server.
//
// The bare server answers the same bytes; both run in child processes, loaded by the same undici
// Pool with the same concurrency. Prints requests per second and the ratio from one run, for the
// admin token and for an exchanged API token (JWT).
//
// Run after a build: `npm run bench:emulator` (or `node bench/emulator-throughput.ts`).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { medianOf, startWithReadyLine } from "./support/index.ts";

const REQUESTS = 20_000;
const CONCURRENCY = 32;
const cli = fileURLToPath(new URL("../emulator/dist/cli.js", import.meta.url));

// CPU time a process has used, in ms (Linux /proc; NaN elsewhere). With one load generator on a small
// machine the client can be the bottleneck, so the server's CPU per request is the fairer measure.
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

interface Measure {
  rps: number;
  cpuUsPerRequest: number;
}

async function load(
  origin: string,
  path: string,
  headers: Record<string, string>,
  pid: number | undefined,
): Promise<Measure> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  let sent = 0;
  const worker = async () => {
    while (sent < REQUESTS) {
      sent++;
      const res = await pool.request({ method: "GET", path, headers });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    }
  };
  // Warm up (JIT, connections, caches), then measure.
  const warm = REQUESTS;
  sent = warm - 2000;
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  sent = 0;
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpuUsPerRequest = ((cpuMs(pid) - cpu0) * 1000) / REQUESTS;
  await pool.close();
  return { rps: REQUESTS / seconds, cpuUsPerRequest };
}

const emu = await startWithReadyLine([cli, "--port", "0", "--admin-token", "bench-admin"]);
const info = JSON.parse(emu.line) as { baseUrl: string; issuerUrl: string; authUrl: string; orgUid: string };
const admin = { authorization: "Bearer bench-admin", "content-type": "application/json" };
const post = async (url: string, body: unknown, headers: Record<string, string> = admin) => {
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
};
const group = await post(`${info.baseUrl}/iam/v2/groups/${info.orgUid}`, {
  name: "bench",
  description: "bench group",
});
const identity = await post(`${info.baseUrl}/iam/v2/identities/${info.orgUid}`, {
  name: "bench-ci",
  claimMatch: { issuer: info.issuerUrl, subject: "bench-ci" },
});
const roles = (await (
  await fetch(`${info.baseUrl}/iam/v2/roles?name=viewer`, { headers: admin })
).json()) as {
  roles: { uid: string }[];
};
await post(`${info.baseUrl}/iam/v2/roleBindings/${info.orgUid}`, {
  identityUid: identity.uid,
  roleUid: roles.roles[0]?.uid,
});
const workload = await post(
  `${info.issuerUrl}/token`,
  { subject: "bench-ci" },
  { "content-type": "application/json" },
);
const exchanged = (await (
  await fetch(
    `${info.authUrl}/sts/exchange?aud=${encodeURIComponent(info.baseUrl)}&identity=${identity.uid}`,
    {
      headers: { authorization: `Bearer ${workload.token}` },
    },
  )
).json()) as { token: string };

const path = `/iam/v2/groups/${group.uid}`;
const bytes = await (await fetch(`${info.baseUrl}${path}`, { headers: admin })).text();

// The bare server answers the same body with the same content type, nothing else.
const bareSource = `
const body = Buffer.from(${JSON.stringify(bytes)});
const server = require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ baseUrl: "http://127.0.0.1:" + server.address().port })));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;
const bare = await startWithReadyLine(["-e", bareSource]);
const bareUrl = (JSON.parse(bare.line) as { baseUrl: string }).baseUrl;

// Alternate the targets over several rounds and keep each one's median, so that warm-up of the load
// generator and noise on a shared machine do not favour whichever runs last.
const ROUNDS = 3;
const results: Record<"bare" | "admin" | "jwt", Measure[]> = { bare: [], admin: [], jwt: [] };
for (let round = 0; round < ROUNDS; round++) {
  results.bare.push(await load(bareUrl, path, {}, bare.child.pid));
  results.admin.push(await load(info.baseUrl, path, { authorization: "Bearer bench-admin" }, emu.child.pid));
  results.jwt.push(
    await load(info.baseUrl, path, { authorization: `Bearer ${exchanged.token}` }, emu.child.pid),
  );
}
const [bareRps, adminRps, jwtRps] = [
  medianOf(results.bare, (x) => x.rps),
  medianOf(results.admin, (x) => x.rps),
  medianOf(results.jwt, (x) => x.rps),
];
const [bareCpu, adminCpu, jwtCpu] = [
  medianOf(results.bare, (x) => x.cpuUsPerRequest),
  medianOf(results.admin, (x) => x.cpuUsPerRequest),
  medianOf(results.jwt, (x) => x.cpuUsPerRequest),
];

emu.child.kill("SIGTERM");
bare.child.kill("SIGTERM");

console.log(
  `GET ${bytes.length}-byte group, ${REQUESTS} requests, ${CONCURRENCY} concurrent (undici Pool), median of ${ROUNDS} alternating rounds`,
);
const row = (what: string, rps: number, cpu: number) =>
  console.log(
    `  ${what.padEnd(30)} ${rps.toFixed(0).padStart(8)} req/s ${cpu.toFixed(1).padStart(8)} µs server CPU/request`,
  );
row("bare node:http", bareRps, bareCpu);
row("emulator, admin token", adminRps, adminCpu);
row("emulator, exchanged API token", jwtRps, jwtCpu);
console.log(
  `  throughput ratio bare / emulator: ${(bareRps / adminRps).toFixed(2)}x (admin), ${(bareRps / jwtRps).toFixed(2)}x (JWT)`,
);
console.log(
  `  server CPU ratio emulator / bare: ${(adminCpu / bareCpu).toFixed(2)}x (admin), ${(jwtCpu / bareCpu).toFixed(2)}x (JWT)`,
);
