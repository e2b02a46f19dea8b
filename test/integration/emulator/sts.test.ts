// Authentication: the local OIDC issuer, the token exchange (STS) and the API tokens it mints —
// audiences, lifetimes, trusted issuers, and every way an exchange or a bearer token can be refused.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ErrorBody, Identity, TestEmulator } from "./support.js";
import { startTestEmulator, TIMESTAMP } from "./support.js";

let emu: TestEmulator;
let id: Identity;
beforeAll(async () => {
  emu = await startTestEmulator();
  id = await emu.identity(emu.orgUid, "workload", "ci-subject");
  await emu.ok("POST", `/iam/v2beta1/roleBindings/${emu.orgUid}`, {
    body: { identityUid: id.uid, roleUid: await emu.roleUid("viewer") },
  });
});
afterAll(() => emu.close());

async function foreignToken(claims: { iss: string; sub: string; aud: string }): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256");
  return new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: "foreign" })
    .setIssuer(claims.iss)
    .setSubject(claims.sub)
    .setAudience(claims.aud)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(privateKey);
}

describe("local issuer", () => {
  test("publishes discovery and a JWKS, and mints tokens for the STS's audience by default", async () => {
    const doc = await emu.ok<{ issuer: string; jwks_uri: string }>(
      "GET",
      `${emu.issuerUrl}/.well-known/openid-configuration`,
      { token: "" },
    );
    expect(doc.issuer).toBe(emu.issuerUrl);
    const jwks = await emu.ok<{ keys: { kty: string; kid: string }[] }>("GET", doc.jwks_uri, { token: "" });
    expect(jwks.keys[0]).toMatchObject({ kty: "EC" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const claims = decodeJwt(await emu.workloadToken("someone"));
    expect(claims).toMatchObject({ iss: emu.issuerUrl, sub: "someone", aud: emu.authUrl });
    expect(decodeJwt(await emu.workloadToken("someone", "custom")).aud).toBe("custom");
  });

  test("mints a CI-shaped token with extra claims, which a claimMatch on them accepts and a mismatch refuses", async () => {
    const minted = await emu.ok<{ token: string }>("POST", `${emu.issuerUrl}/token`, {
      token: "",
      body: {
        subject: "repo:acme/app:ref:refs/heads/main",
        claims: { repository: "acme/app", ref: "refs/heads/main", run_attempt: 2 },
      },
    });
    expect(decodeJwt(minted.token)).toMatchObject({
      iss: emu.issuerUrl,
      sub: "repo:acme/app:ref:refs/heads/main",
      repository: "acme/app",
      ref: "refs/heads/main",
      run_attempt: 2,
    });
    const ci = await emu.ok<Identity>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
      body: {
        name: "gha-claims",
        claimMatch: {
          issuer: emu.issuerUrl,
          subjectPattern: "repo:acme/app:.*",
          claims: { repository: "acme/app" },
        },
      },
    });
    expect((await emu.exchange(minted.token, ci.uid)).status).toBe(200);
    const other = await emu.ok<{ token: string }>("POST", `${emu.issuerUrl}/token`, {
      token: "",
      body: { subject: "repo:acme/app:ref:refs/heads/main", claims: { repository: "acme/other" } },
    });
    expect((await emu.exchange(other.token, ci.uid)).status).toBe(403);
  });

  test("refuses extra claims that would overrule the issuer's own (code 3 naming claims.<name>)", async () => {
    const a = await emu.call<ErrorBody>("POST", `${emu.issuerUrl}/token`, {
      token: "",
      body: { subject: "s", claims: { iss: "https://token.actions.githubusercontent.com", exp: 1 } },
    });
    expect(a.body.code).toBe(3);
    expect(JSON.stringify(a.body.details)).toContain("claims.iss");
    expect(JSON.stringify(a.body.details)).toContain("claims.exp");
  });

  test("refuses a mint request without a subject (code 3)", async () => {
    const a = await emu.call<ErrorBody>("POST", `${emu.issuerUrl}/token`, { token: "", body: {} });
    expect(a.body.code).toBe(3);
  });
});

describe("exchange", () => {
  test("a matching workload token gets an API token for the base URL, valid one hour, that works on the API", async () => {
    const before = Date.now();
    const a = await emu.exchange(await emu.workloadToken("ci-subject"), id.uid);
    expect(a.status).toBe(200);
    expect(Object.keys(a.body)).toEqual(["token"]);
    const claims = decodeJwt(a.body.token);
    expect(claims).toMatchObject({ aud: emu.baseUrl, sub: id.uid });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    const groups = await emu.call("GET", "/iam/v2beta1/groups", { token: a.body.token });
    expect(groups.status).toBe(200);
    const seen = await emu.ok<Identity>("GET", `/iam/v2beta1/identities/${id.uid}`);
    expect(seen.lastSeenTime).toMatch(TIMESTAMP);
    expect(Date.parse(seen.lastSeenTime)).toBeGreaterThanOrEqual(before - 1);
    expect(seen.updateTime).toBe(id.updateTime);
  });

  test("the API tokens' public key is published at {authUrl}/jwks", async () => {
    const jwks = await emu.ok<{ keys: { alg: string }[] }>("GET", `${emu.authUrl}/jwks`, { token: "" });
    expect(jwks.keys[0]?.alg).toBe("ES256");
  });

  const refusals: [string, () => Promise<string>, number][] = [
    ["no Authorization header", async () => "", 16],
    ["a token that is not a JWT", async () => "not-a-jwt", 16],
    [
      "an untrusted issuer",
      () => foreignToken({ iss: "http://127.0.0.1:1/evil", sub: "ci-subject", aud: emu.authUrl }),
      16,
    ],
    [
      "a forged signature",
      () => foreignToken({ iss: emu.issuerUrl, sub: "ci-subject", aud: emu.authUrl }),
      16,
    ],
    ["a workload token for another audience", () => emu.workloadToken("ci-subject", "https://elsewhere"), 16],
    ["an API token instead of a workload token", async () => emu.mintApiToken(id.uid), 16],
    ["a subject that does not match the identity", () => emu.workloadToken("someone-else"), 7],
  ];
  test.each(refusals)("refuses %s (code %i)", async (_what, make, code) => {
    const token = await make();
    const a = await emu.exchange(token, id.uid);
    expect(a.body.code).toBe(code);
    if (token !== "") expect(a.text).not.toContain(token);
  });

  test("an unknown identity and a mismatching one answer the same 7, so identity uids cannot be probed", async () => {
    const token = await emu.workloadToken("ci-subject");
    const unknown = await emu.exchange(token, `${emu.orgUid}/0123456789abcdef`);
    const mismatch = await emu.exchange(await emu.workloadToken("other"), id.uid);
    expect(unknown.body.code).toBe(7);
    expect(mismatch.body.code).toBe(7);
    expect(unknown.body.message.replace(/"[^"]*"/, "")).toBe(mismatch.body.message.replace(/"[^"]*"/, ""));
  });

  test("a wrong aud parameter is 7; missing parameters are 3", async () => {
    const token = await emu.workloadToken("ci-subject");
    expect((await emu.exchange(token, id.uid, "https://other.example")).body.code).toBe(7);
    expect((await emu.exchange(token, id.uid, `${emu.baseUrl}/`)).status).toBe(200);
    const noAud = await emu.call<ErrorBody>("GET", `${emu.authUrl}/sts/exchange`, {
      token,
      query: { identity: id.uid },
    });
    expect(noAud.body.code).toBe(3);
    const noId = await emu.call<ErrorBody>("GET", `${emu.authUrl}/sts/exchange`, {
      token,
      query: { aud: emu.baseUrl },
    });
    expect(noId.body.code).toBe(3);
  });

  test("never contacts an issuer that is not on the allow-list", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end("{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const iss = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const a = await emu.exchange(await foreignToken({ iss, sub: "ci-subject", aud: emu.authUrl }), id.uid);
      expect(a.body.code).toBe(16);
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  test("a trusted outside issuer's tokens are verified through its JWKS", async () => {
    const outside = await startTestEmulator();
    const trusting = await startTestEmulator({ trustedIssuers: [outside.issuerUrl] });
    try {
      const remote = await trusting.ok<Identity>("POST", `/iam/v2beta1/identities/${trusting.orgUid}`, {
        body: { name: "remote", claimMatch: { issuer: outside.issuerUrl, subject: "remote-ci" } },
      });
      const good = await outside.workloadToken("remote-ci", trusting.authUrl);
      expect((await trusting.exchange(good, remote.uid)).status).toBe(200);
      // A token of the trusted issuer for the wrong audience (its own STS) is refused.
      expect((await trusting.exchange(await outside.workloadToken("remote-ci"), remote.uid)).body.code).toBe(
        16,
      );
      // The local issuer's token does not match an identity of the other issuer.
      expect((await trusting.exchange(await trusting.workloadToken("remote-ci"), remote.uid)).body.code).toBe(
        7,
      );
    } finally {
      await trusting.close();
      await outside.close();
    }
  });
});

describe("API tokens", () => {
  test("a missing, malformed, unknown or foreign bearer token is code 16, and the token is never echoed", async () => {
    const other = await startTestEmulator();
    try {
      const foreign = await other.mintApiToken(id.uid);
      for (const [header, token] of [
        [undefined, undefined],
        ["Basic abc", undefined],
        ["Bearer", undefined],
        [undefined, "wrong-admin-token"],
        [undefined, foreign],
        [undefined, await emu.workloadToken("ci-subject")],
      ] as const) {
        const a = await emu.call<ErrorBody>("GET", "/iam/v2beta1/groups", {
          token: header === undefined ? (token ?? "") : "",
          headers: header === undefined ? {} : { authorization: header },
        });
        expect(a.status).toBe(401);
        expect(a.body.code).toBe(16);
        if (token !== undefined) expect(a.text).not.toContain(token);
      }
    } finally {
      await other.close();
    }
  });

  test("an API token stops working when it expires (injected clock)", async () => {
    let now = Date.now();
    const timed = await startTestEmulator({ clock: () => now });
    try {
      const i = await timed.identity(timed.orgUid, "t", "timed-subject");
      const token = (await timed.exchange(await timed.workloadToken("timed-subject"), i.uid)).body.token;
      expect((await timed.call("GET", "/iam/v2beta1/roles", { token })).status).toBe(200);
      now += 3600 * 1000 + 1000;
      const late = await timed.call<ErrorBody>("GET", "/iam/v2beta1/roles", { token });
      expect(late.body.code).toBe(16);
      expect(late.body.message).toContain("expired");
      // The workload token of an hour ago has expired too.
      const stale = await timed.workloadToken("timed-subject");
      now += 3600 * 1000 + 1000;
      expect((await timed.exchange(stale, i.uid)).body.code).toBe(16);
    } finally {
      await timed.close();
    }
  });

  test("tokenTtlSeconds shortens the lifetime of exchanged tokens (real time)", async () => {
    const short = await startTestEmulator({ tokenTtlSeconds: 1 });
    try {
      const i = await short.identity(short.orgUid, "s", "short-subject");
      const token = (await short.exchange(await short.workloadToken("short-subject"), i.uid)).body.token;
      const claims = decodeJwt(token);
      expect((claims.exp as number) - (claims.iat as number)).toBe(1);
      expect((await short.call("GET", "/iam/v2beta1/roles", { token })).status).toBe(200);
      await new Promise((r) => setTimeout(r, (claims.exp as number) * 1000 - Date.now() + 50));
      expect((await short.call<ErrorBody>("GET", "/iam/v2beta1/roles", { token })).body.code).toBe(16);
    } finally {
      await short.close();
    }
  });
});
