// Issue 27: the sdk reads identities as the published gateway writes them and sends only published
// field names. Fixtures are written from the published shapes (protojson with EmitUnpopulated:
// null for unset messages, "" for unset strings, {} and [] for empty maps and lists, unset oneof
// members left out); the field lists are the facts in test/wire-facts.ts.
import { describe, expect, it } from "vitest";
import {
  IDENTITY_MUTABLE_FIELDS,
  IDENTITY_VARIANTS,
  IdentityCreateSchema,
  IdentitySchema,
  IrvClient,
  SERVICE_PRINCIPALS,
} from "../../../sdk/index.js";
import { PUBLISHED, PUBLISHED_SERVICE_PRINCIPALS } from "../../wire-facts.js";
import { mockApi } from "./mock-api.js";

const GROUP_UID = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const UID = `${GROUP_UID}/fedcba9876543210`;
const JWKS = JSON.stringify({
  keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }],
});
const TIMES = { createTime: "2026-11-21T10:00:00Z", updateTime: "2026-11-21T10:00:00Z" };

// An identity as the gateway answers one that never federated: every unset field written.
const published = (variant: object) => ({
  uid: UID,
  name: "ci",
  description: "",
  email: "",
  emailUnverified: "",
  company: "",
  lastSeenTime: null,
  ...TIMES,
  ...variant,
});

const VARIANTS = {
  claimMatch: {
    wire: {
      claimMatch: {
        issuer: "https://issuer.example",
        subjectPattern: "repo:acme/.*",
        claims: {},
        claimPatterns: {},
      },
    },
    read: { claimMatch: { issuer: "https://issuer.example", subjectPattern: "repo:acme/.*" } },
  },
  staticKeys: {
    wire: {
      staticKeys: {
        issuer: "https://ci.internal",
        subject: "deployer",
        issuerKeys: JWKS,
        expirationTime: "2027-11-21T10:00:00Z",
        audiences: [],
      },
    },
    read: {
      staticKeys: {
        issuer: "https://ci.internal",
        subject: "deployer",
        issuerKeys: JWKS,
        expirationTime: "2027-11-21T10:00:00Z",
      },
    },
  },
  awsIdentity: {
    wire: {
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:sts::123456789012:assumed-role/ci/.*",
        userId: "AROA1",
      },
    },
    read: {
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:sts::123456789012:assumed-role/ci/.*",
        userId: "AROA1",
      },
    },
  },
  servicePrincipal: {
    wire: { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
    read: { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
  },
} as const;

const P = PUBLISHED;
// The published messages of the variants, by the Identity field that holds them.
const SUB: Record<string, readonly string[]> = {
  claimMatch: P["Identity.ClaimMatch"].fields,
  staticKeys: P["Identity.StaticKeys"].fields,
  awsIdentity: P["Identity.AWSIdentity"].fields,
};

// Every key of a body (dotted below the variants) that a published request may not carry.
function unpublished(body: Record<string, unknown>): string[] {
  return Object.entries(body).flatMap(([k, v]) => {
    if (!(P.Identity.input as readonly string[]).includes(k)) return [k];
    const inner = SUB[k];
    if (inner === undefined || typeof v !== "object" || v === null) return [];
    return Object.keys(v).flatMap((f) => (inner.includes(f) ? [] : [`${k}.${f}`]));
  });
}

// Keys present with the value `undefined`, at any depth (toEqual does not tell them from absent).
const undefinedKeys = (v: unknown, at = ""): string[] =>
  typeof v !== "object" || v === null
    ? []
    : Object.entries(v).flatMap(([k, x]) =>
        x === undefined ? [`${at}${k}`] : undefinedKeys(x, `${at}${k}.`),
      );

describe("Identity conformance with the published v2beta1 definitions", () => {
  it("has the published variants, service principals and mutable paths, nothing else", () => {
    // The `relationship` oneof (identities.proto:216-228): every input field but name and description.
    const oneof = P.Identity.input.filter((f) => f !== "name" && f !== "description");
    expect([...IDENTITY_VARIANTS].sort()).toEqual([...oneof].sort());
    expect(SERVICE_PRINCIPALS, PUBLISHED_SERVICE_PRINCIPALS.source).toEqual(
      PUBLISHED_SERVICE_PRINCIPALS.values,
    );
    for (const path of IDENTITY_MUTABLE_FIELDS) {
      const [head, leaf] = path.split(".") as [string, string | undefined];
      expect(P.Identity.input, path).toContain(head);
      if (leaf !== undefined) expect(SUB[head], path).toContain(leaf);
    }
  });

  it.each(Object.entries(VARIANTS))(
    "reads a published %s identity, nulls and empty values as absent",
    (_, v) => {
      const read = IdentitySchema.parse(published(v.wire));
      expect(read).toEqual({ uid: UID, name: "ci", ...TIMES, ...v.read });
      // Regression: keys holding `undefined` broke the engine's property maps ("Unexpected struct type").
      expect(undefinedKeys(read)).toEqual([]);
    },
  );

  it("keeps a description, a last-seen time, claim maps and an audience that are set", () => {
    const read = IdentitySchema.parse(
      published({
        description: "CI",
        lastSeenTime: "2026-11-22T08:00:00Z",
        claimMatch: { issuer: "https://i", subject: "s", claims: { ref: "main" }, claimPatterns: {} },
      }),
    );
    expect(read).toMatchObject({ description: "CI", lastSeenTime: "2026-11-22T08:00:00Z" });
    expect(read.claimMatch).toEqual({ issuer: "https://i", subject: "s", claims: { ref: "main" } });
    const keys = IdentitySchema.parse(
      published({ staticKeys: { ...VARIANTS.staticKeys.read.staticKeys, audiences: ["ci"] } }),
    );
    expect(keys.staticKeys?.audiences).toEqual(["ci"]);
  });

  it("reads a service principal it does not know yet, and one written as its enum number", () => {
    expect(
      IdentitySchema.parse(published({ servicePrincipal: "SERVICE_PRINCIPAL_FROM_THE_FUTURE" }))
        .servicePrincipal,
    ).toBe("SERVICE_PRINCIPAL_FROM_THE_FUTURE");
    expect(IdentitySchema.parse(published({ servicePrincipal: 2 })).servicePrincipal).toBe(
      "SERVICE_PRINCIPAL_INGESTER",
    );
  });

  it("reads static keys with a null expiration and a pattern in a dialect JavaScript does not compile", () => {
    const keys = IdentitySchema.parse(
      published({
        staticKeys: {
          issuer: "https://i",
          subject: "s",
          issuerKeys: JWKS,
          expirationTime: null,
          audiences: [],
        },
      }),
    );
    expect(keys.staticKeys).toEqual({ issuer: "https://i", subject: "s", issuerKeys: JWKS });
    const re2 = IdentitySchema.parse(
      published({ claimMatch: { issuer: "https://i", subjectPattern: "(?i)repo:acme/.*" } }),
    );
    expect(re2.claimMatch?.subjectPattern).toBe("(?i)repo:acme/.*");
  });

  it("refuses the 0.x names on write: they are not published fields", () => {
    const old = IdentityCreateSchema.safeParse({ name: "ci", static: VARIANTS.staticKeys.read.staticKeys });
    expect(old.error?.issues.map((i) => i.message)).toEqual([
      "exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required",
    ]);
    const principal = IdentityCreateSchema.safeParse({ name: "ci", servicePrincipal: "REGISTRY" });
    expect(principal.error?.issues[0]?.message).toMatch(/^must be one of SERVICE_PRINCIPAL_COSIGNED, /);
    const far = IdentityCreateSchema.safeParse({
      name: "ci",
      staticKeys: { issuer: "https://i", subject: "s", issuerKeys: JWKS, audiences: ["a", "b"] },
    });
    expect(far.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "staticKeys.audiences: takes at most one audience (the service supports a single one for now)",
    ]);
  });

  it.each(Object.entries(VARIANTS))(
    "sends a %s create and PATCH with published field names only",
    async (name, v) => {
      const { agent, origin, pool } = mockApi();
      const sent: { path: string; body: Record<string, unknown> }[] = [];
      const answer = (opts: { path: string; body?: unknown }) => {
        sent.push({ path: opts.path, body: JSON.parse(String(opts.body)) as Record<string, unknown> });
        return { statusCode: 200, data: published(v.wire) };
      };
      pool.intercept({ path: `/iam/v2/identities/${GROUP_UID}`, method: "POST" }).reply(answer);
      pool
        .intercept({ path: (p) => p.startsWith(`/iam/v2/identities/${UID}?`), method: "PATCH" })
        .reply(answer);
      const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });

      const created = await client.identities.create(GROUP_UID, { name: "ci", description: "CI", ...v.read });
      expect(created).toEqual({ uid: UID, name: "ci", ...TIMES, ...v.read });
      await client.identities.update(
        UID,
        { description: "", ...v.read },
        { updateMask: ["description", name] },
      );

      expect(sent.map((s) => s.body)).toEqual([
        { name: "ci", description: "CI", ...v.read },
        { description: "", ...v.read },
      ]);
      expect(sent.flatMap((s) => unpublished(s.body))).toEqual([]);
      // Mask paths in proto field names (`static_keys`), as FieldMask paths are.
      const protoName = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      expect(new URL(sent[1]?.path ?? "", origin).searchParams.get("updateMask")).toBe(
        `description,${protoName}`,
      );
    },
  );
});
