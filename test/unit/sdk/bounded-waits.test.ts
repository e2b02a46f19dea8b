// The waits of the token exchange against a real socket on loopback: a token service that accepts
// the connection and never answers, and one that answers only when the test lets it.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { exchangeToken, IrvClient, NetworkError } from "../../../sdk/index.js";
import { GROUP, mockApi, noSleep, status } from "./mock-api.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("bounded waits", () => {
  it("regression (a stalled token service hung a run: undici's 300 s default, times the retries): the exchange gives up after its timeout, once, saying why", async () => {
    let exchanges = 0;
    const authUrl = await serve(() => {
      exchanges++; // accept, never answer
    });
    const auth = exchangeToken({
      authUrl,
      baseUrl: "https://irv.test",
      identity: "org/ci",
      identityToken: "oidc-token-value",
    });
    const { agent, origin } = mockApi();
    const client = new IrvClient({
      baseUrl: origin,
      auth,
      dispatcher: agent,
      sleep: noSleep,
      timeoutMs: 100,
    });
    const err = await client.roles.list().catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(
      "getting an API token failed: no API token within 100 ms (gave up after 1 attempt: the token service did not answer in time)",
    );
    expect(exchanges).toBe(1);
  });

  it("bounds the exchange itself by its own timeout, for every caller sharing it", async () => {
    const authUrl = await serve(() => {});
    const source = exchangeToken({
      authUrl,
      baseUrl: "https://irv.test",
      identity: "org/ci",
      identityToken: "oidc-token-value",
      timeoutMs: 100,
    });
    await expect(source.getToken()).rejects.toThrow(/no answer within 100 ms \(UND_ERR_HEADERS_TIMEOUT\)$/);
  });

  it("regression (one caller aborting failed every caller sharing the exchange): the others still get the token", async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((r) => {
      release = r;
    });
    let exchanges = 0;
    const authUrl = await serve((_req, res) => {
      exchanges++;
      void answered.then(() =>
        res.setHeader("content-type", "application/json").end('{"token":"api-token-1"}'),
      );
    });
    const source = exchangeToken({
      authUrl,
      baseUrl: "https://irv.test",
      identity: "org/ci",
      identityToken: "oidc-token-value",
    });
    const impatient = new AbortController();
    const first = source.getToken(impatient.signal).catch((e) => e);
    const second = source.getToken();
    const third = source.getToken(new AbortController().signal);
    impatient.abort(new Error("caller gave up"));
    expect(((await first) as Error).message).toBe("caller gave up");
    release();
    expect(await second).toBe("api-token-1");
    expect(await third).toBe("api-token-1");
    expect(exchanges).toBe(1);
  });

  it("says how many attempts were made and why it gave up", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "GET" })
      .reply(503, status(14, "down"))
      .times(3);
    const client = new IrvClient({
      baseUrl: origin,
      token: "static-token-value",
      dispatcher: agent,
      sleep: noSleep,
      retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1, multiplier: 1 },
    });
    await expect(client.groups.get(GROUP.uid)).rejects.toThrow(
      /UNAVAILABLE \(14\): down \(gave up after 3 attempts: the limit of 3 attempts is reached\)$/,
    );
  });
});
