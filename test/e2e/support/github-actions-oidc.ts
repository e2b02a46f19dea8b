// A loopback stand-in for the OIDC token endpoint GitHub Actions gives a job
// (`GET $ACTIONS_ID_TOKEN_REQUEST_URL&audience=…` with `Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN`
// → `{"count", "value"}`). It checks the bearer and signs each token with the emulator's local issuer
// for the audience asked for, with a short life, and records what it issued.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmulatorHandle } from "../../../emulator/index.js";

/** What the fake issued, in order. */
export interface IssuedToken {
  audience: string;
  token: string;
}

/** A running fake token endpoint. */
export interface FakeGithubOidc {
  /** The two variables a job with `permissions: id-token: write` has. */
  env: { ACTIONS_ID_TOKEN_REQUEST_URL: string; ACTIONS_ID_TOKEN_REQUEST_TOKEN: string };
  issued: IssuedToken[];
  /** Answer every request with this status (as GitHub does without the permission); `undefined` restores. */
  refuseWith(status: 401 | 403 | undefined): void;
  close(): Promise<void>;
}

/**
 * Starts the fake on a free loopback port. Tokens carry `sub` = `subject` and live `ttlSeconds`.
 *
 * @example
 * const gh = await startFakeGithubOidc(irv.emulator, { subject: "repo:acme/infra:ref:refs/heads/main", ttlSeconds: 3 });
 * createStack({ program, env: { ...gh.env, IRV_BASE_URL, IRV_AUTH_URL, IRV_IDENTITY } });
 */
export async function startFakeGithubOidc(
  emulator: Pick<EmulatorHandle, "mintIdentityToken">,
  options: { subject: string; ttlSeconds: number },
): Promise<FakeGithubOidc> {
  const requestToken = randomBytes(24).toString("base64url");
  const issued: IssuedToken[] = [];
  let refusal: 401 | 403 | undefined;
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method !== "GET" || url.pathname !== "/idtoken" || url.searchParams.get("api-version") !== "2.0")
      return reply(404, { message: "Not Found" });
    if (refusal) return reply(refusal, { message: "Forbidden: the job may not request an OIDC token" });
    if (req.headers.authorization !== `bearer ${requestToken}`)
      return reply(401, { message: "Unauthorized: bad request token" });
    const audience = url.searchParams.get("audience");
    if (!audience) return reply(400, { message: "audience is required" });
    emulator
      .mintIdentityToken({ subject: options.subject, audience, ttlSeconds: options.ttlSeconds })
      .then((token) => {
        issued.push({ audience, token });
        reply(200, { count: token.length, value: token });
      })
      .catch((e: Error) => reply(500, { message: e.message }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/idtoken?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
    },
    issued,
    refuseWith: (status) => {
      refusal = status;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
