// Issue 10 item 10: the STS fetches only what it must. An outside issuer's discovery and JWKS are
// fetched on the issuer's own origin only (redirects elsewhere are not followed), and a failed fetch
// is remembered for a while, so unauthenticated requests cannot make the STS fetch again and again.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, test } from "vitest";
import type { TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

type Handler = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

/** A loopback HTTP server that counts requests per path and answers with a swappable handler. */
interface FakeHost {
  origin: string;
  hits: Map<string, number>;
  handler: Handler;
  server: Server;
}

async function fakeHost(handler: Handler = (_q, res) => res.writeHead(404).end()): Promise<FakeHost> {
  const host: FakeHost = { origin: "", hits: new Map(), handler, server: createServer() };
  host.server.on("request", (req, res) => {
    const path = req.url ?? "";
    host.hits.set(path, (host.hits.get(path) ?? 0) + 1);
    host.handler(req, res, host.origin);
  });
  await new Promise<void>((r) => host.server.listen(0, "127.0.0.1", r));
  host.origin = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
  return host;
}

const json = (res: ServerResponse, body: unknown) =>
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
const redirect = (res: ServerResponse, location: string) => res.writeHead(302, { location }).end();
const DISCOVERY = "/.well-known/openid-configuration";

/** A real OIDC issuer's answers (discovery + JWKS) on `origin`, and a signer of its tokens. */
async function issuerKeys() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  const servePath = (path: string, res: ServerResponse, origin: string) => {
    if (path === DISCOVERY) json(res, { issuer: origin, jwks_uri: `${origin}/jwks` });
    else if (path === "/jwks") json(res, { keys: [jwk] });
    else res.writeHead(404).end();
  };
  const serve: Handler = (req, res, origin) => servePath(req.url ?? "", res, origin);
  const sign = (iss: string, aud: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(iss)
      .setSubject("ci")
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
  return { serve, servePath, sign };
}

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function setup(clock?: () => number) {
  const issuer = await fakeHost();
  const elsewhere = await fakeHost();
  open.push(issuer.server, elsewhere.server);
  const emu: TestEmulator = await startTestEmulator({ trustedIssuers: [issuer.origin], clock });
  open.push(emu);
  const identity = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
    body: { name: "outside-ci", claimMatch: { issuer: issuer.origin, subject: "ci" } },
  });
  const keys = await issuerKeys();
  elsewhere.handler = keys.serve;
  const exchange = async () =>
    emu.exchange(await keys.sign(issuer.origin, emu.authUrl), identity.uid).then((a) => a.body);
  return { issuer, elsewhere, emu, keys, exchange };
}

describe("redirects", () => {
  test("regression (OIDC discovery followed redirects to any host): a redirect off the issuer's origin is not followed, the exchange is code 16", async () => {
    const { issuer, elsewhere, exchange } = await setup();
    issuer.handler = (req, res) => redirect(res, `${elsewhere.origin}${req.url}`);
    const a = await exchange();
    expect(a.code).toBe(16);
    expect(a.message).toMatch(/discovery redirected off the issuer's origin/);
    expect(elsewhere.hits.size).toBe(0);
  });

  test("a JWKS redirect off the issuer's origin is not followed either; redirects within the origin are", async () => {
    const { issuer, elsewhere, exchange } = await setup();
    issuer.handler = (req, res, origin) => {
      if (req.url === DISCOVERY) json(res, { issuer: origin, jwks_uri: `${origin}/jwks` });
      else redirect(res, `${elsewhere.origin}/jwks`);
    };
    const a = await exchange();
    expect(a.code).toBe(16);
    expect(a.message).toMatch(/the JWKS redirected off the issuer's origin/);
    expect(elsewhere.hits.size).toBe(0);

    const { issuer: moved, keys, exchange: exchangeMoved } = await setup();
    moved.handler = (req, res, origin) => {
      const path = req.url ?? "";
      if (path.startsWith("/v2/")) keys.servePath(path.slice(3), res, origin);
      else redirect(res, `/v2${path}`);
    };
    expect((await exchangeMoved()).token).toEqual(expect.any(String));
    expect(moved.hits.get(`/v2${DISCOVERY}`)).toBe(1);
  });
});

describe("failures are remembered", () => {
  test("regression (every unauthenticated exchange re-fetched a failing issuer's discovery): a failed fetch is answered from memory for 30 s, then tried again", async () => {
    let now = Date.now();
    const { issuer, keys, exchange } = await setup(() => now);
    issuer.handler = (_req, res) => res.writeHead(500).end();
    for (let i = 0; i < 5; i++) {
      const a = await exchange();
      expect(a.code).toBe(16);
      expect(a.message).toMatch(/could not be read \(discovery answered HTTP 500\)/);
    }
    expect(issuer.hits.get(DISCOVERY)).toBe(1);

    issuer.handler = keys.serve;
    now += 29_000;
    expect((await exchange()).code).toBe(16);
    expect(issuer.hits.get(DISCOVERY)).toBe(1);
    now += 2_000;
    expect((await exchange()).token).toEqual(expect.any(String));
    expect(issuer.hits.get(DISCOVERY)).toBe(2);
  });

  test("a failing JWKS is fetched once per window too", async () => {
    const { issuer, keys, exchange } = await setup();
    issuer.handler = (req, res, origin) => {
      if (req.url === "/jwks") res.writeHead(503).end();
      else keys.serve(req, res, origin);
    };
    for (let i = 0; i < 5; i++) expect((await exchange()).code).toBe(16);
    expect(issuer.hits.get("/jwks")).toBe(1);
    expect(issuer.hits.get(DISCOVERY)).toBe(1);
  });
});
