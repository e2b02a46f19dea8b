// Property-based fuzz of the emulator's HTTP surface. test/integration/emulator/malformed-input.test.ts
// pins one example of each kind of bad input; this throws random combinations of them at every
// surface (API, v1, STS, issuer, control API, unknown routes): odd methods, malformed and deep JSON,
// wrong field types, bodies over the limit, absurd page sizes, skips and page tokens, repeated and
// unknown parameters, bad and forged tokens, odd uids and percent-encodings. For every request: no 5xx,
// and every error is AIP-193 shaped — {code, message, details} with ErrorInfo and a RequestInfo
// matching x-request-id, under the grpc-gateway status of its code. The server answers afterwards.
// Some requests (heads over 16 KiB, raw bytes in the path) are refused by Node's HTTP parser before
// any route sees them; those must be AIP-193 shaped too.
import fc from "fast-check";
import { SignJWT } from "jose";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_IN_ROLE_NAMES, httpStatusForCode } from "../../../sdk/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";

const RUNS = Number(process.env.IRV_FUZZ_RUNS ?? 1000);
const TYPE = "type.googleapis.com/google.rpc.";

interface FuzzRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string | undefined;
}

let irv: TestEmulator;
let pool: Pool;
let forgedJwt: string;
let workloadToken: string;

beforeAll(async () => {
  irv = await startTestEmulator();
  pool = new Pool(irv.emulator.baseUrl, { connections: 4 });
  forgedJwt = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(irv.emulator.orgUid)
    .setAudience(irv.emulator.baseUrl)
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode("not the emulator's key, not at all"));
  // A real token of the local issuer: valid for the STS, never for the API.
  workloadToken = await irv.emulator.mintIdentityToken({ subject: "repo:acme/fuzz" });
});

afterAll(async () => {
  await pool?.close();
  await irv?.close();
});

// URL-safe text, plus the characters that make paths and queries interesting.
const urlText = (max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9._~!$'()*,;:@%/+=&-]{0,${max}}$`));
const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x21-\\x7e]{0,${max}}$`));
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));

const uid = () =>
  fc.oneof(
    fc.constant(irv.emulator.orgUid),
    hex(16).map((h) => `${irv.emulator.orgUid}/${h}`),
    hex(40),
    urlText(60),
    fc.constantFrom("..", "%2F", "%2e%2e", "%zz", "%", "%00", "a%20b", "ü".normalize(), "/", "//"),
    fc.integer({ min: 100, max: 20_000 }).map((n) => "a".repeat(n)),
    fc.integer({ min: 1, max: 600 }).map((n) => `${irv.emulator.orgUid}${"/0123456789abcdef".repeat(n)}`),
  );

const path = () =>
  fc
    .tuple(
      fc.constantFrom(
        "/iam/v2/",
        "/registry/v2/",
        "/vulnerabilities/v2/",
        "/iam/v1/",
        "/registry/v1/",
        "/_emulator/",
        "/auth/sts/",
        "/oidc/",
        "/",
      ),
      fc.constantFrom(
        "groups",
        "identities",
        "roles",
        "roleBindings",
        "identityProviders",
        "accountAssociations",
        "groupInvites",
        "repos",
        "tags",
        "advisories",
        "exchange",
        "token",
        "jwks",
        "stats",
        "stats/reset",
        "fixtures",
        "faults",
        ".well-known/openid-configuration",
        "widgets",
        "",
      ),
      fc.option(uid(), { nil: undefined }),
    )
    .map(([prefix, collection, id]) => `${prefix}${collection}${id === undefined ? "" : `/${id}`}`);

const queryValue = () =>
  fc.oneof(
    fc.integer().map(String),
    fc.constantFrom("-1", "0", "201", "99999999999999999999", "1e309", "NaN", "0x10", "1.5", "", " ", "true"),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
    printable(80),
    fc.base64String({ maxLength: 200 }),
    fc.integer({ min: 200, max: 8000 }).map((n) => "x".repeat(n)),
  );

const query = () =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(
            "page_size",
            "pageSize",
            "page_token",
            "pageToken",
            "skip",
            "order_by",
            "orderBy",
            "updateMask",
            "update_mask",
            "uidp.children_of",
            "uidp.descendants_of",
            "name",
            "aud",
            "identity",
          ),
          urlText(12),
        ),
        queryValue(),
      ),
      { maxLength: 5 },
    )
    .map((pairs) =>
      pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`,
    );

const authorization = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(() => `Bearer ${irv.emulator.adminToken}`) },
    fc.constant(() => undefined),
    printable(100).map((t) => () => `Bearer ${t}`),
    printable(60).map((t) => () => t),
    fc.constant(() => `Basic ${Buffer.from("user:pass").toString("base64")}`),
    fc.constant(() => `Bearer ${forgedJwt}`),
    fc.constant(() => `Bearer ${workloadToken}`),
    fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map(
      ([a, b, c]) =>
        () =>
          `Bearer eyJ${a}.${b}.${c}`.replace(/=/g, ""),
    ),
  );

const jsonBody = () =>
  fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          name: fc.jsonValue(),
          description: fc.jsonValue(),
          claimMatch: fc.jsonValue(),
          identityUid: fc.jsonValue(),
          roleUid: fc.jsonValue(),
          parentUid: fc.jsonValue(),
          spec: fc.jsonValue(),
          subject: fc.jsonValue(),
          groups: fc.jsonValue(),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
  );

const body = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: jsonBody() },
    { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
    fc.constantFrom(
      "{",
      "}",
      "[",
      '{"name":',
      "null",
      '"x"',
      "{}",
      '{"__proto__":{"a":1}}',
      '{"constructor":{}}',
    ),
    fc.integer({ min: 100, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`),
    fc.integer({ min: 100, max: 20_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
    fc.constant(JSON.stringify({ name: "big", description: "x".repeat(1024 * 1024 + 10) })),
  );

const request = (): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS"),
      path: path(),
      query: query(),
      authorization: authorization(),
      contentType: fc.option(
        fc.constantFrom(
          "application/json",
          "application/json; charset=utf-8",
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/json; charset=latin1",
          "multipart/form-data; boundary=x",
        ),
        { nil: undefined },
      ),
      body: body(),
    })
    .map((r) => ({
      method: r.method,
      path: `${r.path}${r.query}`,
      authorization: r.authorization(),
      contentType: r.contentType,
      body: r.method === "GET" || r.method === "HEAD" ? undefined : r.body,
    }));

interface Answer {
  status: number;
  requestId: string | undefined;
  text: string;
}

async function send(r: FuzzRequest): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (r.authorization !== undefined) headers.authorization = r.authorization;
  if (r.contentType !== undefined) headers["content-type"] = r.contentType;
  const res = await pool.request({
    method: r.method as "GET",
    path: r.path,
    headers,
    ...(r.body === undefined ? {} : { body: r.body }),
  });
  const text = await res.body.text();
  const id = res.headers["x-request-id"];
  return { status: res.statusCode, requestId: Array.isArray(id) ? id[0] : id, text };
}

/** Why an answer is not acceptable, or undefined when it is. */
function problem(r: FuzzRequest, a: Answer): string | undefined {
  if (a.status >= 500) return `HTTP ${a.status}: ${a.text.slice(0, 300)}`;
  if (a.status < 400 || r.method === "HEAD") return undefined;
  let body: { code?: unknown; message?: unknown; details?: unknown };
  try {
    body = JSON.parse(a.text) as typeof body;
  } catch {
    return `HTTP ${a.status} with a body that is not JSON: ${a.text.slice(0, 200)}`;
  }
  if (typeof body.code !== "number" || !Number.isInteger(body.code)) return "no integer code";
  if (typeof body.message !== "string" || body.message === "") return "no message";
  if (!Array.isArray(body.details)) return "no details array";
  const details = body.details as {
    "@type"?: unknown;
    reason?: unknown;
    domain?: unknown;
    requestId?: unknown;
  }[];
  if (!details.every((d) => typeof d["@type"] === "string" && d["@type"].startsWith(TYPE)))
    return "a detail without a google.rpc @type";
  const info = details.find((d) => d["@type"] === `${TYPE}ErrorInfo`);
  if (
    !info ||
    typeof info.reason !== "string" ||
    !/^[A-Z][A-Z_]*$/.test(info.reason) ||
    typeof info.domain !== "string"
  )
    return "no ErrorInfo with an UPPER_SNAKE reason and a domain";
  const requestInfo = details.find((d) => d["@type"] === `${TYPE}RequestInfo`);
  if (a.requestId === undefined || requestInfo?.requestId !== a.requestId)
    return "RequestInfo.requestId does not match x-request-id";
  const expected = httpStatusForCode(body.code);
  if (a.status !== expected && !(a.status === 405 && body.code === 12))
    return `code ${body.code} under HTTP ${a.status} (grpc-gateway: ${expected})`;
  return undefined;
}

describe("the emulator under a fuzz of malformed requests", () => {
  it(`answers ${RUNS} random malformed requests without a 5xx, every error AIP-193 shaped`, async () => {
    const run = await fc.check(
      fc.asyncProperty(request(), async (r) => {
        // The control API is fuzzed too: undo any fault spec a previous request managed to set.
        irv.emulator.setFaults("none");
        const why = problem(r, await send(r));
        if (why !== undefined) throw new Error(why);
      }),
      { numRuns: RUNS, seed: Number(process.env.IRV_FUZZ_SEED ?? 20261121), endOnFailure: true },
    );
    // Report the failing request briefly (its strings can be kilobytes long).
    const [r] = (run.counterexample ?? []) as [FuzzRequest?];
    const failure =
      r &&
      `${r.method} ${r.path.slice(0, 300)} (content-type ${r.contentType}, body ${String(r.body).slice(0, 200)}): ${(run.errorInstance as Error | undefined)?.message}`;
    expect(run.failed ? `seed ${run.seed}, path ${run.counterexamplePath}: ${failure}` : "").toBe("");
  });

  it("still answers normal requests afterwards", async () => {
    irv.emulator.setFaults("none");
    expect((await irv.admin.roles.list({})).items.map((r) => r.name).sort()).toEqual(
      [...BUILT_IN_ROLE_NAMES].sort(),
    );
    const g = await irv.admin.groups.create(irv.emulator.orgUid, { name: "after-the-fuzz" });
    expect((await irv.admin.groups.get(g.uid)).name).toBe("after-the-fuzz");
  });
});
