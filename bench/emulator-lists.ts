// Bench: the emulator's list latency at the first page and deep in a list of 100 000 groups.
//
// The deep page through a page token (keyset: should cost what the first page costs) and through
// skip (OFFSET: walks the skipped index entries). Prints one table and the ratios, measured side by
// side.
//
// Run after a build: `npm run bench:emulator` (or `node bench/emulator-lists.ts`).
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { benchSession, median } from "./support/index.ts";

const TOTAL = 100_000;
const DEEP = 90_000;
const ROUNDS = 40;

const session = await benchSession({ pulumi: false });
const { emu } = session;
const seedStart = performance.now();
emu.seed({ groups: Array.from({ length: TOTAL }, (_, i) => ({ name: `g-${String(i).padStart(6, "0")}` })) });
const seedMs = performance.now() - seedStart;

const pool = new Pool(emu.baseUrl, { connections: 1 });
const headers = { authorization: `Bearer ${emu.adminToken}` };

async function get(
  query: string,
): Promise<{ ms: number; body: { groups: unknown[]; nextPageToken?: string } }> {
  const start = performance.now();
  const res = await pool.request({ method: "GET", path: `/iam/v2/groups?${query}`, headers });
  const body = (await res.body.json()) as { groups: unknown[]; nextPageToken?: string };
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - start, body };
}

async function medianMs(query: string): Promise<number> {
  for (let i = 0; i < 10; i++) await get(query); // warm-up: JIT, statement cache, count cache
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push((await get(query)).ms);
  return median(times);
}

// A page token pointing at position DEEP, obtained once (with skip) for each order.
async function deepToken(order: string): Promise<string> {
  const { body } = await get(`page_size=50&skip=${DEEP - 50}&order_by=${encodeURIComponent(order)}`);
  if (body.nextPageToken === undefined) throw new Error("no token at the deep position");
  return body.nextPageToken;
}

// The first page right after a write: the cached totalCount is gone, so this pays one COUNT over
// the index (O(matches)); every page after it, at any depth, reuses the count until the next write.
async function afterWrite(query: string): Promise<number> {
  const target = `/iam/v2/groups/${emu.orgUid}`;
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const res = await pool.request({
      method: "PATCH",
      path: target,
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ description: `write ${i}` }),
    });
    await res.body.text();
    times.push((await get(query)).ms);
  }
  return median(times);
}

const rows: [string, number][] = [];
for (const order of ["created_at", "name"]) {
  const o = encodeURIComponent(order);
  rows.push([`${order}: first page`, await medianMs(`page_size=50&order_by=${o}`)]);
  const token = await deepToken(order);
  rows.push([
    `${order}: page token at ${DEEP}`,
    await medianMs(`page_size=50&order_by=${o}&page_token=${token}`),
  ]);
  rows.push([`${order}: skip=${DEEP}`, await medianMs(`page_size=50&order_by=${o}&skip=${DEEP}`)]);
}

const uncounted = await afterWrite("page_size=50");
await pool.close();
await session.close();

console.log(
  `emulator list latency over ${TOTAL} groups (median of ${ROUNDS}; seeded in ${seedMs.toFixed(0)} ms)`,
);
for (const [what, ms] of rows) console.log(`  ${what.padEnd(34)} ${ms.toFixed(2).padStart(8)} ms`);
console.log(`  first page right after a write (COUNT) ${uncounted.toFixed(2).padStart(6)} ms`);
for (let i = 0; i < rows.length; i += 3) {
  const [first, cursor, skip] = [rows[i]?.[1], rows[i + 1]?.[1], rows[i + 2]?.[1]] as [
    number,
    number,
    number,
  ];
  const order = rows[i]?.[0].split(":")[0];
  console.log(
    `  ratio ${order}: page token at ${DEEP} / first page = ${(cursor / first).toFixed(2)}x; skip=${DEEP} / first page = ${(skip / first).toFixed(2)}x`,
  );
}
