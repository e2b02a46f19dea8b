import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { exchangeToken, IrvClient } from "../../../sdk/index.js";
import { EXCHANGE, GROUP, mockApi, mockExchange } from "./mock-api.js";

const key = new TextEncoder().encode("k".repeat(32));
const apiToken = (exp: number, sub = "id") =>
  new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setExpirationTime(exp).sign(key);

describe("exchangeToken", () => {
  it("exchanges the workload token for an API token and caches it until shortly before exp", async () => {
    const { agent, origin, pool } = mockApi();
    let now = 1_000_000_000_000;
    const t1 = await apiToken(now / 1000 + 3600);
    pool
      .intercept({ path: EXCHANGE, method: "GET", headers: { authorization: "Bearer oidc-1" } })
      .reply(200, { token: t1 });
    const source = mockExchange({ agent, origin }, { identityToken: "oidc-1", now: () => now });
    expect(await source.getToken()).toBe(t1);
    now += 50 * 60 * 1000;
    expect(await source.getToken()).toBe(t1);
    const t2 = await apiToken(now / 1000 + 3600, "again");
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: t2 });
    now += 6 * 60 * 1000; // within 5 minutes of exp: refresh
    expect(await source.getToken()).toBe(t2);
  });

  it("regression (short-lived tokens exchanged before every request): reuses a token shorter-lived than the refresh margin for half its life", async () => {
    const { agent, origin, pool } = mockApi();
    let now = 1_000_000_000_000;
    // A 2-minute token, well under the 5-minute refresh margin.
    const t1 = await apiToken(now / 1000 + 120);
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: t1 });
    const source = mockExchange({ agent, origin }, { identityToken: "oidc", now: () => now });
    expect(await source.getToken()).toBe(t1);
    now += 59 * 1000; // within the first half of its life: no exchange (the mock has none left)
    expect(await source.getToken()).toBe(t1);
    const t2 = await apiToken(now / 1000 + 120, "again");
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: t2 });
    now += 2 * 1000; // past half-life: exchange again, before it expires
    expect(await source.getToken()).toBe(t2);
  });

  it("re-reads the identity token file on every exchange", async () => {
    const { agent, origin, pool } = mockApi();
    const dir = mkdtempSync(join(tmpdir(), "irv-"));
    const file = join(dir, "token");
    writeFileSync(file, "oidc-a\n");
    pool
      .intercept({ path: EXCHANGE, method: "GET", headers: { authorization: "Bearer oidc-a" } })
      .reply(200, { token: "opaque-1" });
    pool
      .intercept({ path: EXCHANGE, method: "GET", headers: { authorization: "Bearer oidc-b" } })
      .reply(200, { token: "opaque-2" });
    const source = mockExchange({ agent, origin }, { identityTokenFile: file });
    expect(await source.getToken()).toBe("opaque-1");
    writeFileSync(file, "oidc-b");
    source.invalidate();
    expect(await source.getToken()).toBe("opaque-2");
    rmSync(dir, { recursive: true, force: true });
  });

  it("shares one exchange between concurrent callers", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: "opaque" }).times(1);
    const source = mockExchange({ agent, origin }, { identityToken: "oidc" });
    const tokens = await Promise.all([source.getToken(), source.getToken(), source.getToken()]);
    expect(new Set(tokens)).toEqual(new Set(["opaque"]));
  });

  it("exchanges again once after a 401 and retries the call", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: "stale" });
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: "fresh" });
    const path = `/iam/v2/groups/${GROUP.uid}`;
    pool
      .intercept({ path, method: "GET", headers: { authorization: "Bearer stale" } })
      .reply(401, { code: 16, message: "expired", details: [] });
    pool.intercept({ path, method: "GET", headers: { authorization: "Bearer fresh" } }).reply(200, GROUP);
    const auth = mockExchange({ agent, origin }, { identityToken: "oidc" });
    const client = new IrvClient({ baseUrl: origin, auth, dispatcher: agent });
    expect((await client.groups.get(GROUP.uid)).uid).toBe(GROUP.uid);
  });

  it("reports a refused exchange with the server's reason and without the workload token", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: EXCHANGE, method: "GET" })
      .reply(403, { code: 7, message: "subject does not match the identity's claimMatch", details: [] });
    const source = mockExchange({ agent, origin }, { identityToken: "oidc-secret-value" });
    const err = await source.getToken().catch((e) => e);
    expect(err.codeName).toBe("PERMISSION_DENIED");
    expect(err.message).toContain("claimMatch");
    expect(err.message).not.toContain("oidc-secret-value");
  });

  it("names the setting when neither a token nor a token file is given", () => {
    expect(() => exchangeToken({ authUrl: "https://a", baseUrl: "https://b", identity: "x" })).toThrow(
      /irv:identityTokenFile/,
    );
  });

  it("names the file when the identity token file cannot be read", async () => {
    const source = exchangeToken({
      authUrl: "https://a",
      baseUrl: "https://b",
      identity: "x",
      identityTokenFile: "/nonexistent/token",
    });
    await expect(source.getToken()).rejects.toThrow(/\/nonexistent\/token.*ENOENT/);
  });
});
