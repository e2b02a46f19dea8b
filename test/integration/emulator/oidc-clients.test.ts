// Identity providers' OIDC settings as the published message has them (issue 38): groupsClaim,
// pkceEnabled and the immutable correlationRule are kept and answered; a public (PKCE-only) client
// needs no secret, and a client needs a secret or PKCE; an empty clientSecret follows the published
// mask rule (kept unless the mask names oidc.clientSecret; a REST body that holds it names it).
// Over the emulator's HTTP wire, raw and through the typed client.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { IrvClient } from "../../../sdk/index.js";
import type { ErrorBody, Group, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
let g: Group;
let viewer: string;
let client: IrvClient;
let seq = 0;
beforeAll(async () => {
  emu = await startTestEmulator();
  g = await emu.group("oidc");
  viewer = await emu.roleUid("viewer");
  client = new IrvClient({ baseUrl: emu.baseUrl, token: emu.adminToken });
});
afterAll(() => emu.close());

type Oidc = Record<string, unknown>;
type Idp = { uid: string; oidc: Oidc } & ErrorBody;
const issuer = "https://login.example.com";
const at = (uid: string) => `/iam/v2beta1/identityProviders/${uid}`;
const create = async (oidc: Oidc) =>
  emu.ok<Idp>("POST", at(g.uid), { body: { name: `idp-${++seq}`, defaultRole: viewer, oidc } });
const patch = (uid: string, oidc: Oidc, updateMask?: string) =>
  emu.call<Idp>("PATCH", at(uid), { body: { oidc }, ...(updateMask ? { query: { updateMask } } : {}) });
const violations = (body: ErrorBody) =>
  detail<{ fieldViolations: { field: string; description: string }[] }>(body, "BadRequest").fieldViolations;

describe("OIDC settings of identity providers", () => {
  test("a public PKCE-only client is created without a secret, through the typed client, and reads back whole", async () => {
    const made = await client.identityProviders.create(g.uid, {
      name: "public-cli",
      defaultRole: viewer,
      oidc: {
        issuer,
        clientId: "cli",
        pkceEnabled: true,
        groupsClaim: "groups",
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
      },
    });
    const expected = {
      issuer,
      clientId: "cli",
      additionalScopes: [],
      groupsClaim: "groups",
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
      pkceEnabled: true,
    };
    expect(made.oidc).toEqual(expected);
    expect((await client.identityProviders.get(made.uid)).oidc).toEqual(expected);
    const raw = await emu.ok<Idp>("GET", at(made.uid));
    expect(raw.oidc).toEqual(expected);
    expect(JSON.stringify(raw)).not.toContain("clientSecret");
  });

  test('unset settings answer as the gateway writes them: groupsClaim "", pkceEnabled false, CORRELATION_RULE_UNSPECIFIED', async () => {
    const made = await create({ issuer, clientId: "c", clientSecret: "s" });
    expect(made.oidc).toEqual({
      issuer,
      clientId: "c",
      additionalScopes: [],
      groupsClaim: "",
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      pkceEnabled: false,
    });
  });

  test("a client with neither a secret nor PKCE is code 3 naming oidc.clientSecret and the rule", async () => {
    for (const oidc of [
      { issuer, clientId: "c" },
      { issuer, clientId: "c", clientSecret: "", pkceEnabled: false },
    ]) {
      const a = await emu.call<ErrorBody>("POST", at(g.uid), {
        body: { name: `none-${++seq}`, defaultRole: viewer, oidc },
      });
      expect([a.status, a.body.code]).toEqual([400, 3]);
      expect(violations(a.body)).toEqual([
        {
          field: "oidc.clientSecret",
          description:
            "is required unless pkceEnabled is true: at least one of clientSecret or pkceEnabled must be set",
        },
      ]);
    }
  });

  test("an empty clientSecret keeps the secret unless the mask names oidc.clientSecret, which clears it", async () => {
    const idp = await create({ issuer, clientId: "c", clientSecret: "s3cr3t", pkceEnabled: true });
    // Not named: kept (turning PKCE off still finds a secret, so the rule holds).
    expect(
      (await patch(idp.uid, { clientSecret: "", groupsClaim: "roles" }, "oidc.groups_claim")).status,
    ).toBe(200);
    // The whole block named, the secret left out: kept too (only oidc.clientSecret names it).
    const whole = { issuer, clientId: "c", groupsClaim: "roles", pkceEnabled: true };
    expect((await patch(idp.uid, whole, "oidc")).status).toBe(200);
    const off = await patch(idp.uid, { pkceEnabled: false }, "oidc.pkce_enabled");
    expect(off.status, off.text).toBe(200);
    expect(off.body.oidc).toMatchObject({ groupsClaim: "roles", pkceEnabled: false });
    // Without PKCE the secret cannot go: code 3, nothing changed.
    const refused = await patch(idp.uid, { clientSecret: "" }, "oidc.client_secret");
    expect(refused.body.code).toBe(3);
    expect(violations(refused.body).map((v) => v.field)).toEqual(["oidc.clientSecret"]);
    // With PKCE back on, the REST body naming clientSecret "" (no mask: the body's keys are the mask)
    // clears it: a confidential client becomes a public one.
    expect((await patch(idp.uid, { pkceEnabled: true })).status).toBe(200);
    const cleared = await patch(idp.uid, { clientSecret: "" });
    expect(cleared.status, cleared.text).toBe(200);
    // No secret is left: PKCE cannot be turned off any more.
    const again = await patch(idp.uid, { pkceEnabled: false });
    expect(again.body.code).toBe(3);
    expect(violations(again.body).map((v) => v.field)).toEqual(["oidc.clientSecret"]);
  });

  test("correlationRule is immutable: restating it or leaving it out is no change, another rule is code 3", async () => {
    const idp = await create({
      issuer,
      clientId: "c",
      clientSecret: "s",
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    });
    const restated = await patch(idp.uid, { correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" });
    expect(restated.status).toBe(200);
    const omitted = await patch(idp.uid, { issuer, clientId: "c2" }, "oidc");
    expect(omitted.status).toBe(200);
    expect(omitted.body.oidc).toMatchObject({
      clientId: "c2",
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    });
    for (const [oidc, mask] of [
      [{ correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" }, undefined],
      [{ correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" }, "oidc.correlation_rule"],
    ] as const) {
      const changed = await patch(idp.uid, oidc, mask);
      expect([changed.status, changed.body.code]).toEqual([400, 3]);
      expect(violations(changed.body)).toEqual([
        {
          field: "oidc.correlationRule",
          description: expect.stringMatching(
            /^is immutable: the identity provider matches logins with CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID; create a new identity provider/,
          ),
        },
      ]);
    }
    expect((await emu.ok<Idp>("GET", at(idp.uid))).oidc.correlationRule).toBe(
      "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    );
    // Unset means SUB_EQUALS_EXTERNAL_ID: restating that on a provider created without a rule is no change.
    const plain = await create({ issuer, clientId: "c", clientSecret: "s" });
    const same = await patch(plain.uid, { correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" });
    expect(same.status, same.text).toBe(200);
    expect(
      (await patch(plain.uid, { correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" })).body.code,
    ).toBe(3);
    const unknown = await patch(plain.uid, { correlationRule: "CORRELATION_RULE_EMAIL" });
    expect(violations(unknown.body).map((v) => v.field)).toEqual(["oidc.correlationRule"]);
  });
});
