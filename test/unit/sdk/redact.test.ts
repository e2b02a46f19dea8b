import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import type { TransportEvent } from "../../../sdk/index.js";
import { IrvClient, redactError } from "../../../sdk/index.js";
import { EXCHANGE, GROUP, mockApi, mockExchange, status } from "./mock-api.js";

// Opaque tokens: not JWT-shaped, not after "Bearer": only their value can find them.
const API_TOKEN = "opaque-api-token-0f3c9a";
const OIDC_TOKEN = "opaque-workload-token-77b1e2";

/** Every way an error is shown or stored. */
function renderings(err: Error): string[] {
  const causes: string[] = [];
  for (let c: unknown = err.cause; c instanceof Error; c = c.cause) causes.push(c.message, String(c.stack));
  return [
    err.message,
    String(err.stack),
    String(err),
    JSON.stringify(err),
    inspect(err, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    ...causes,
  ];
}

describe("redaction by value", () => {
  it("regression (opaque tokens echoed by a server leaked into errors): no credential the client sent appears in any rendering of an error", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "PATCH" }).reply(
      400,
      status(3, `token ${API_TOKEN} may not set this`, [
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field: "name", description: `caller ${API_TOKEN} is read-only` }],
        },
        { "@type": "type.example.com/Debug", echo: { authorization: API_TOKEN } },
      ]),
    );
    const events: TransportEvent[] = [];
    const client = new IrvClient({
      baseUrl: origin,
      token: API_TOKEN,
      dispatcher: agent,
      onEvent: (e) => events.push(e),
    });
    const err = await client.groups.update(GROUP.uid, { name: "x" }).catch((e) => e);
    expect(err.codeName).toBe("INVALID_ARGUMENT");
    expect(err.message).toContain("may not set this");
    for (const text of [...renderings(err), JSON.stringify(err.fieldViolations), JSON.stringify(err.details)])
      expect(text).not.toContain(API_TOKEN);
    expect(err.serverMessage).toBe("token *** may not set this");
    expect(JSON.stringify(events)).not.toContain(API_TOKEN);
    expect(events.at(-1)?.error).toContain("***");
  });

  it("regression (the workload token echoed by the token service leaked): redacts the workload and API tokens from exchange failures", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: EXCHANGE, method: "GET" })
      .reply(401, status(16, `token ${OIDC_TOKEN} has expired`));
    const events: TransportEvent[] = [];
    const auth = mockExchange({ agent, origin }, { identityToken: OIDC_TOKEN });
    const client = new IrvClient({
      baseUrl: origin,
      auth,
      dispatcher: agent,
      onEvent: (e) => events.push(e),
    });
    const err = await client.roles.list().catch((e) => e);
    expect(err.codeName).toBe("UNAUTHENTICATED");
    expect(err.message).toMatch(/^getting an API token failed: .*token \*\*\* has expired/);
    for (const text of renderings(err)) expect(text).not.toContain(OIDC_TOKEN);
    expect(JSON.stringify(events)).not.toContain(OIDC_TOKEN);
  });

  it("redacts values through cause chains, in place, URL-encoded forms included", () => {
    const inner = new Error(`upstream said ${encodeURIComponent("tok/with+chars==")} and tok/with+chars==`);
    const outer = Object.assign(new Error("wrapped", { cause: inner }), {
      extra: { note: "tok/with+chars==" },
    });
    redactError(outer, ["tok/with+chars=="]);
    expect(inspect(outer, { depth: 5 })).not.toMatch(/tok(%2F|\/)with/);
    expect(inner.message).toBe("upstream said *** and ***");
  });
});
