// The STS and the identity variants: exact and pattern claim matches (issuer, subject, audience,
// extra claims) against a trusted issuer; staticKeys identities verified with their own issuerKeys
// and audiences until their expirationTime; AWS identities and service principals refused with a
// clear message.
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { JWTPayload } from "jose";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorBody, TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

/** A minimal OIDC issuer on loopback that signs whatever claims a test asks for. */
async function startIssuer(): Promise<{
  url: string;
  sign(claims: JWTPayload): Promise<string>;
  close(): void;
}> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  let url = "";
  const server: Server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration")
      res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    else res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sign: (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setIssuer(url)
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(privateKey),
    close: () => server.close(),
  };
}

let emu: TestEmulator;
let issuer: Awaited<ReturnType<typeof startIssuer>>;
let seq = 0;
// How far the emulator's clock runs ahead of ours (to reach an expiration without waiting for it).
let ahead = 0;
beforeAll(async () => {
  issuer = await startIssuer();
  emu = await startTestEmulator({ trustedIssuers: [issuer.url], clock: () => Date.now() + ahead });
});
afterAll(async () => {
  await emu.close();
  issuer.close();
});

const identity = (body: Record<string, unknown>) =>
  emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
    body: { name: `v${++seq}`, ...body },
  });
const codeOf = async (token: string, uid: string) => {
  const a = await emu.exchange(token, uid);
  return a.status === 200 ? 0 : a.body.code;
};

describe("claimMatch", () => {
  test("a subject pattern is anchored: it matches whole subjects only", async () => {
    const id = await identity({ claimMatch: { issuer: issuer.url, subjectPattern: "repo:acme/[a-z]+" } });
    const token = (sub: string) => issuer.sign({ sub, aud: emu.authUrl });
    expect(await codeOf(await token("repo:acme/app"), id.uid)).toBe(0);
    expect(await codeOf(await token("repo:acme/app:ref:main"), id.uid)).toBe(7);
    expect(await codeOf(await token("xrepo:acme/app"), id.uid)).toBe(7);
  });

  // Regression (issue 25 item 1): patterns were JavaScript regexes: `(?i)` was refused at create,
  // and `(a+)+b` against a subject of a's backtracked exponentially inside the STS (ReDoS: the
  // whole emulator stalled). RE2 answers in linear time; bench/patterns.ts measures it.
  test("patterns are RE2: (?i) matches case-insensitively, a catastrophic pattern/subject pair is answered 7", async () => {
    const token = (sub: string) => issuer.sign({ sub, aud: emu.authUrl });
    const folded = await identity({
      claimMatch: { issuer: issuer.url, subjectPattern: "(?i)repo:acme/app" },
    });
    expect(await codeOf(await token("REPO:Acme/App"), folded.uid)).toBe(0);
    const hostile = await identity({ claimMatch: { issuer: issuer.url, subjectPattern: "(a+)+b" } });
    const answers = [];
    for (const n of [64, 4096]) answers.push(await codeOf(await token("a".repeat(n)), hostile.uid));
    expect(answers).toEqual([7, 7]);
    expect(
      (
        await emu.call<ErrorBody>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
          body: { name: `v${++seq}`, claimMatch: { issuer: issuer.url, subjectPattern: "repo:(?=acme)" } },
        })
      ).body.message,
    ).toMatch(
      /claimMatch\.subjectPattern: is not a valid RE2 pattern: invalid or unsupported Perl syntax at character 6/,
    );
  });

  test("an issuer pattern matches trusted issuers only; untrusted ones are never fetched (16)", async () => {
    const id = await identity({
      claimMatch: { issuerPattern: "http://127\\.0\\.0\\.1:\\d+", subject: "ci" },
    });
    expect(await codeOf(await issuer.sign({ sub: "ci", aud: emu.authUrl }), id.uid)).toBe(0);
    const stranger = await startIssuer();
    try {
      expect(await codeOf(await stranger.sign({ sub: "ci", aud: emu.authUrl }), id.uid)).toBe(16);
    } finally {
      stranger.close();
    }
  });

  test("extra claims must be carried with exactly these values, claim patterns must match", async () => {
    const id = await identity({
      claimMatch: {
        issuer: issuer.url,
        subject: "ci",
        claims: { repository: "acme/app", email_verified: "true" },
        claimPatterns: { ref: "refs/heads/(main|release-.*)" },
      },
    });
    const token = (extra: JWTPayload) =>
      issuer.sign({
        sub: "ci",
        aud: emu.authUrl,
        repository: "acme/app",
        email_verified: true,
        ref: "refs/heads/main",
        ...extra,
      });
    expect(await codeOf(await token({}), id.uid)).toBe(0);
    expect(await codeOf(await token({ ref: "refs/heads/release-2" }), id.uid)).toBe(0);
    expect(await codeOf(await token({ ref: "refs/heads/feature" }), id.uid)).toBe(7);
    expect(await codeOf(await token({ repository: "acme/other" }), id.uid)).toBe(7);
    expect(await codeOf(await token({ email_verified: false }), id.uid)).toBe(7);
    expect(await codeOf(await issuer.sign({ sub: "ci", aud: emu.authUrl }), id.uid)).toBe(7);
  });

  test("an identity naming an audience decides it; without one the token must be for this STS", async () => {
    const exact = await identity({ claimMatch: { issuer: issuer.url, subject: "ci", audience: "sigstore" } });
    const pattern = await identity({
      claimMatch: { issuer: issuer.url, subject: "ci", audiencePattern: "https://.*\\.acme\\.dev" },
    });
    const plain = await identity({ claimMatch: { issuer: issuer.url, subject: "ci" } });
    const token = (aud: string | string[]) => issuer.sign({ sub: "ci", aud });
    expect(await codeOf(await token("sigstore"), exact.uid)).toBe(0);
    expect(await codeOf(await token(["other", "sigstore"]), exact.uid)).toBe(0);
    expect(await codeOf(await token(emu.authUrl), exact.uid)).toBe(7);
    expect(await codeOf(await token("https://ci.acme.dev"), pattern.uid)).toBe(0);
    expect(await codeOf(await token("https://ci.acme.dev.evil"), pattern.uid)).toBe(7);
    expect(await codeOf(await token("sigstore"), plain.uid)).toBe(16);
  });
});

describe("staticKeys identities", () => {
  async function staticSetup(more: { expirationTime?: string; audiences?: string[] } = {}) {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const issuerKeys = JSON.stringify({
      keys: [{ ...(await exportJWK(publicKey)), kid: "s1", alg: "ES256" }],
    });
    const id = await identity({
      staticKeys: { issuer: "https://ci.internal", subject: "deployer", issuerKeys, ...more },
    });
    // Signed on the emulator's clock, which a test may move ahead.
    const sign = (claims: JWTPayload, key = privateKey) => {
      const now = Math.floor((Date.now() + ahead) / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: "s1" })
        .setIssuer("https://ci.internal")
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(key);
    };
    return { id, sign };
  }

  test("a token signed by the identity's issuerKeys is exchanged, with no fetch; other keys or subjects are not", async () => {
    const { id, sign } = await staticSetup({
      expirationTime: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(await codeOf(await sign({ sub: "deployer", aud: emu.authUrl }), id.uid)).toBe(0);
    expect(await codeOf(await sign({ sub: "someone", aud: emu.authUrl }), id.uid)).toBe(7);
    expect(await codeOf(await sign({ sub: "deployer", aud: "elsewhere" }), id.uid)).toBe(16);
    const other = (await generateKeyPair("ES256")).privateKey;
    expect(await codeOf(await sign({ sub: "deployer", aud: emu.authUrl }, other), id.uid)).toBe(16);
    const api = await emu.exchange(await sign({ sub: "deployer", aud: emu.authUrl }), id.uid);
    expect((await emu.call("GET", "/iam/v2beta1/roles", { token: api.body.token })).status).toBe(200);
  });

  test("after its expirationTime a static identity's tokens are refused (16) with the date", async () => {
    const expirationTime = new Date(Date.now() + 86_400_000).toISOString();
    const { id, sign } = await staticSetup({ expirationTime });
    const token = await sign({ sub: "deployer", aud: emu.authUrl });
    ahead = 2 * 86_400_000;
    try {
      const a = await emu.exchange(token, id.uid);
      expect(a.body.code).toBe(16);
      expect(a.body.message).toContain(`static keys expired at ${expirationTime}`);
    } finally {
      ahead = 0;
    }
  });

  test("without an expirationTime the keys are accepted for the service's default of 365 days", async () => {
    const { id, sign } = await staticSetup();
    ahead = 364 * 86_400_000;
    try {
      expect(await codeOf(await sign({ sub: "deployer", aud: emu.authUrl }), id.uid)).toBe(0);
      ahead = 366 * 86_400_000;
      expect(await codeOf(await sign({ sub: "deployer", aud: emu.authUrl }), id.uid)).toBe(16);
    } finally {
      ahead = 0;
    }
  });

  test("audiences, when given, replace the STS's own audience", async () => {
    const { id, sign } = await staticSetup({ audiences: ["sigstore"] });
    expect(await codeOf(await sign({ sub: "deployer", aud: "sigstore" }), id.uid)).toBe(0);
    expect(await codeOf(await sign({ sub: "deployer", aud: ["other", "sigstore"] }), id.uid)).toBe(0);
    const a = await emu.exchange(await sign({ sub: "deployer", aud: emu.authUrl }), id.uid);
    expect(a.body.code).toBe(16);
    expect(a.body.message).toContain("audience is not sigstore");
  });
});

describe("variants the emulator cannot exchange", () => {
  test("an AWS identity is stored but its exchange is refused (9): AWS signatures cannot be verified here", async () => {
    const id = await identity({
      awsIdentity: {
        awsAccount: "123456789012",
        arn: "arn:aws:iam::123456789012:role/ci",
        userId: "AROAX",
      },
    });
    const a = await emu.exchange(await issuer.sign({ sub: "ci", aud: emu.authUrl }), id.uid);
    expect(a.body.code).toBe(9);
    expect((a.body as ErrorBody).message).toContain("cannot verify AWS signatures");
  });

  test("regression (AWS identity uids disclosed before the token check): an unverified token learns nothing about an AWS identity", async () => {
    const id = await identity({
      awsIdentity: {
        awsAccount: "123456789012",
        arn: "arn:aws:iam::123456789012:role/probe",
        userId: "AROAY",
      },
    });
    const forged = `${(await issuer.sign({ sub: "ci", aud: emu.authUrl })).slice(0, -4)}AAAA`;
    const unknownUid = "00000000-0000-4000-8000-0000000000aa";
    const onAws = await emu.exchange(forged, id.uid);
    const onNothing = await emu.exchange(forged, unknownUid);
    expect(onAws.body.code).toBe(16);
    expect(onAws.body.code).toBe(onNothing.body.code);
    expect(JSON.stringify(onAws.body)).not.toMatch(/AWS/);
  });

  test("a service principal is assumed only by the service (7)", async () => {
    const id = await identity({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    const a = await emu.exchange(await emu.workloadToken("anyone"), id.uid);
    expect(a.body.code).toBe(7);
    expect(a.body.message).toContain("service principal SERVICE_PRINCIPAL_INGESTER");
  });
});
