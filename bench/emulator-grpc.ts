// Bench: the emulator's gRPC transport against its HTTP/JSON one, on the same port, side by side.
//
// One emulator (the built CLI, a child process) serves both. Measured in alternating rounds, each
// transport with the same concurrency: GET of one group, and a LIST page of 200 over 10,000 groups
// (with the total count); requests per second, per-request p50/p99, and the emulator process's own CPU
// time per request (from /proc, so that the server's cost shows apart from the client's: both share the
// machine's cores). The HTTP side is an undici Pool of keep-alive connections; the gRPC side is measured
// with two clients generated from proto/, multiplexing on HTTP/2: Connect for Node (gRPC protocol), and
// @grpc/grpc-js with the same messages (the client's own cost differs by twice). The cost the preface dispatch adds to HTTP is
// measured on a bare node:http server with and without it, one new connection per request (the
// dispatch acts once per connection; with keep-alive it is paid once per connection only).
// The goals (issue 47) are on the emulator's CPU per request, gRPC ÷ HTTP: GET ≤ 1.5×, LIST ≤ 1.2×;
// requests per second are printed for reference.
//
// Run after a build: `node bench/emulator-grpc.ts` (or `npm run bench -- emulator-grpc`).
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { DescService } from "@bufbuild/protobuf";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import { Pool } from "undici";
import { GroupsService } from "../emulator/dist/grpc/gen/chainguard/platform/iam/v2/groups_pb.js";
import { medianOf, processCpuMs, startWithReadyLine } from "./support/index.ts";

const CONCURRENCY = 16;
const GET_REQUESTS = 6_000;
const LIST_REQUESTS = 600;
const ITEMS = 10_000;
const ROUNDS = 3;
const cli = fileURLToPath(new URL("../emulator/dist/cli.js", import.meta.url));
const dispatchModule = new URL("../emulator/dist/grpc/index.js", import.meta.url).href;

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** The emulator's CPU time (user + system) per request, µs; NaN where /proc cannot tell. */
  serverCpu: number;
}

// `server`: the process whose CPU per request is noted (none for the bare servers).
async function measure(requests: number, one: () => Promise<void>, server?: number): Promise<Measure> {
  const latencies: number[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < requests) {
      sent++;
      const t = performance.now();
      await one();
      latencies.push(performance.now() - t);
    }
  };
  // Warm up with a tenth, then measure.
  sent = requests - Math.ceil(requests / 10);
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  sent = 0;
  latencies.length = 0;
  const cpu0 = processCpuMs(server);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = ((processCpuMs(server) - cpu0) * 1000) / requests;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: requests / seconds, p50: at(0.5), p99: at(0.99), serverCpu };
}

const emu = await startWithReadyLine([cli, "--port", "0", "--admin-token", "bench-admin"]);
const info = JSON.parse(emu.line) as { baseUrl: string; orgUid: string };
const admin = { authorization: "Bearer bench-admin", "content-type": "application/json" };
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${info.baseUrl}${path}`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
};
const parent = (await post(`/iam/v2/groups/${info.orgUid}`, { name: "bench" })) as { uid: string };
// The 10,000 groups of the LIST, under a root group of their own (fixtures name new trees).
await post("/_emulator/fixtures", {
  groups: [{ name: "bench-list", groups: Array.from({ length: ITEMS }, (_, i) => ({ name: `g${i}` })) }],
});
const listParent = await (async () => {
  const res = await fetch(`${info.baseUrl}/iam/v2/groups?name=bench-list`, { headers: admin });
  const body = (await res.json()) as { groups: { uid: string }[] };
  return body.groups[0]?.uid ?? parent.uid;
})();

const pool = new Pool(info.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
const httpGet = async (path: string) => {
  const res = await pool.request({ method: "GET", path, headers: { authorization: admin.authorization } });
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
};
const groups = createClient(
  GroupsService,
  createGrpcTransport({
    baseUrl: info.baseUrl,
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", admin.authorization);
        return next(req);
      },
    ],
  }),
);
// The same service over @grpc/grpc-js: its unary methods from the generated descriptors, the messages
// encoded by @bufbuild/protobuf as Connect's client does.
function grpcJsClient(service: DescService): {
  call: Record<string, (req: unknown) => Promise<unknown>>;
  close: () => void;
} {
  const definition: grpc.ServiceDefinition = Object.fromEntries(
    service.methods.map((m) => [
      m.localName,
      {
        path: `/${service.typeName}/${m.name}`,
        requestStream: false,
        responseStream: false,
        requestSerialize: (v: unknown) => Buffer.from(toBinary(m.input, create(m.input, v as never))),
        requestDeserialize: (b: Buffer) => fromBinary(m.input, b),
        responseSerialize: (v: unknown) => Buffer.from(toBinary(m.output, v as never)),
        responseDeserialize: (b: Buffer) => fromBinary(m.output, b),
      },
    ]),
  );
  const Client = grpc.makeGenericClientConstructor(definition, service.name);
  const client = new Client(new URL(info.baseUrl).host, grpc.credentials.createInsecure());
  const unary = client as unknown as Record<
    string,
    (req: unknown, md: grpc.Metadata, cb: (e: grpc.ServiceError | null, v?: unknown) => void) => void
  >;
  const metadata = new grpc.Metadata();
  metadata.set("authorization", admin.authorization);
  const call = Object.fromEntries(
    service.methods.map((m) => [
      m.localName,
      (req: unknown) =>
        new Promise((resolve, reject) =>
          unary[m.localName]?.call(client, req, metadata, (e, v) => (e === null ? resolve(v) : reject(e))),
        ),
    ]),
  );
  return { call, close: () => client.close() };
}
const groupsJs = grpcJsClient(GroupsService);
const listPath = `/iam/v2/groups?uidp.children_of=${encodeURIComponent(listParent)}&page_size=200`;
const firstPage = await groups.listGroups({ uidp: { childrenOf: listParent }, pageSize: 200 });
if (firstPage.groups.length !== 200 || Number(firstPage.totalCount) !== ITEMS)
  throw new Error(`the list is not 200 of ${ITEMS}: ${firstPage.groups.length} of ${firstPage.totalCount}`);

const emulator = emu.child.pid;
const targets = {
  "GET, HTTP/JSON": () => measure(GET_REQUESTS, () => httpGet(`/iam/v2/groups/${parent.uid}`), emulator),
  "GET, gRPC": () =>
    measure(GET_REQUESTS, async () => void (await groups.getGroup({ uid: parent.uid })), emulator),
  "GET, gRPC (grpc-js client)": () =>
    measure(GET_REQUESTS, async () => void (await groupsJs.call.getGroup?.({ uid: parent.uid })), emulator),
  "LIST 200 of 10,000, HTTP/JSON": () => measure(LIST_REQUESTS, () => httpGet(listPath), emulator),
  "LIST 200 of 10,000, gRPC": () =>
    measure(
      LIST_REQUESTS,
      async () => void (await groups.listGroups({ uidp: { childrenOf: listParent }, pageSize: 200 })),
      emulator,
    ),
  "LIST 200 of 10,000, gRPC (grpc-js client)": () =>
    measure(
      LIST_REQUESTS,
      async () =>
        void (await groupsJs.call.listGroups?.({ uidp: { childrenOf: listParent }, pageSize: 200 })),
      emulator,
    ),
};
const results: Record<string, Measure[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(targets)) {
    results[name] = [...(results[name] ?? []), await run()];
  }
}
await pool.close();
groupsJs.close();
emu.child.kill("SIGTERM");

// The dispatch's own cost: a bare node:http server with and without it, a new connection per request.
const bareSource = (withDispatch: boolean) => `
const http = require("node:http");
const server = http.createServer((req, res) => res.end("ok"));
(async () => {
  if (${withDispatch}) {
    const { attachProtocolDispatch } = await import(${JSON.stringify(dispatchModule)});
    attachProtocolDispatch(server, require("node:http2").createServer(), false);
  }
  server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ baseUrl: "http://127.0.0.1:" + server.address().port })));
})();
process.on("SIGTERM", () => process.exit(0));
`;
const plain = await startWithReadyLine(["-e", bareSource(false)]);
const dispatched = await startWithReadyLine(["-e", bareSource(true)]);
const fresh = (baseUrl: string) => async () => {
  const res = await fetch(`${baseUrl}/`, { headers: { connection: "close" } });
  await res.text();
};
const bare: Record<string, Measure[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, s] of [
    ["bare node:http, no dispatch", plain],
    ["bare node:http, with dispatch", dispatched],
  ] as const) {
    const m = await measure(2_000, fresh((JSON.parse(s.line) as { baseUrl: string }).baseUrl));
    bare[name] = [...(bare[name] ?? []), m];
  }
}
plain.child.kill("SIGTERM");
dispatched.child.kill("SIGTERM");

const summary = (m: Measure[]) => ({
  rps: medianOf(m, (x) => x.rps),
  p50: medianOf(m, (x) => x.p50),
  p99: medianOf(m, (x) => x.p99),
  serverCpu: medianOf(m, (x) => x.serverCpu),
});
console.log(
  `Emulator GET and LIST over gRPC and HTTP/JSON on one port, ${CONCURRENCY} concurrent, median of ${ROUNDS} alternating rounds`,
);
console.log("| target | req/s | p50 ms | p99 ms | emulator CPU µs/req |");
console.log("|---|---|---|---|---|");
const all = { ...results, ...bare };
for (const [name, m] of Object.entries(all)) {
  const s = summary(m);
  const cpu = Number.isFinite(s.serverCpu) ? s.serverCpu.toFixed(0) : "–";
  console.log(`| ${name} | ${s.rps.toFixed(0)} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${cpu} |`);
}
const ratio = (a: string, b: string) => (summary(all[a] ?? []).rps / summary(all[b] ?? []).rps).toFixed(2);
const cpuRatio = (a: string, b: string) =>
  (summary(all[a] ?? []).serverCpu / summary(all[b] ?? []).serverCpu).toFixed(2);
// The goal is on the server's own CPU per request (issue 47): throughput also counts each client's
// cost, which the two protocols' client libraries make unequal, on the same two cores as the server.
console.log(
  `Emulator CPU per request, gRPC ÷ HTTP (the server's own cost, whatever the client's): GET ${cpuRatio("GET, gRPC", "GET, HTTP/JSON")}× (goal ≤ 1.5×), LIST ${cpuRatio("LIST 200 of 10,000, gRPC", "LIST 200 of 10,000, HTTP/JSON")}× (goal ≤ 1.2×)`,
);
console.log(
  `gRPC ÷ HTTP throughput, for reference: GET ${ratio("GET, gRPC", "GET, HTTP/JSON")}×, LIST ${ratio("LIST 200 of 10,000, gRPC", "LIST 200 of 10,000, HTTP/JSON")}×; with the grpc-js client GET ${ratio("GET, gRPC (grpc-js client)", "GET, HTTP/JSON")}×, LIST ${ratio("LIST 200 of 10,000, gRPC (grpc-js client)", "LIST 200 of 10,000, HTTP/JSON")}×`,
);
console.log(
  `HTTP with the dispatch ÷ without, a new connection per request: ${ratio("bare node:http, with dispatch", "bare node:http, no dispatch")}× (goal ≥ 0.98×, i.e. at most 1.02× the cost)`,
);
