// Conformance with the published v2beta1 wire format (issue 27): the sdk parses answers written as
// grpc-gateway writes them (protojson defaults: nulls, "", [], enum names), and sends exactly the
// published request fields. The facts are in test/wire-facts.ts.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { KindName } from "../../../sdk/index.js";
import { IrvClient, KINDS, RoleBindingSchema, RoleSchema } from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";
import { mockApi } from "./mock-api.js";

const keysOf = (schema: z.ZodType | undefined): string[] => {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (shape !== undefined) return Object.keys(shape);
  // A refined object (create schemas with cross-field rules) keeps its shape inside.
  const inner = (schema as { def?: { in?: z.ZodType; schema?: z.ZodType } } | undefined)?.def;
  return inner?.in ? keysOf(inner.in) : inner?.schema ? keysOf(inner.schema) : [];
};

// Every resource carries createTime and updateTime where the spec speaks (spec §2): allowed beside
// the published fields.
const SPEC_COMMON = ["createTime", "updateTime"];

// Every kind: a new one fails to type-check until its published message is named here.
const MESSAGE_OF: Record<KindName, keyof typeof PUBLISHED> = {
  groups: "Group",
  identities: "Identity",
  roles: "Role",
  roleBindings: "RoleBinding",
  identityProviders: "IdentityProvider",
  accountAssociations: "AccountAssociations",
  groupInvites: "GroupInvite",
  externalGroupRoleMappings: "ExternalGroupRoleMapping",
  repos: "Repo",
  tags: "Tag",
  overlays: "Overlay",
  overlayBindings: "OverlayBinding",
  subscriptions: "Subscription",
  advisories: "Advisory",
};

describe.each(Object.entries(MESSAGE_OF))("kind %s", (kind, message) => {
  const facts = PUBLISHED[message as keyof typeof PUBLISHED];
  const spec = KINDS[kind as KindName];

  it(`reads no field the published ${message} lacks`, () => {
    const extra = keysOf(spec.schema).filter(
      (k) => !(facts.fields as readonly string[]).includes(k) && !SPEC_COMMON.includes(k),
    );
    expect(extra, facts.source).toEqual([]);
  });

  it(`writes only fields a ${message} request may carry`, () => {
    const input = ("input" in facts ? facts.input : []) as readonly string[];
    expect(
      keysOf(spec.create).filter((k) => !input.includes(k)),
      facts.source,
    ).toEqual([]);
    expect(
      spec.mutable.map((p) => p.split(".")[0] as string).filter((k) => !input.includes(k)),
      facts.source,
    ).toEqual([]);
  });
});

describe("answers as grpc-gateway writes them", () => {
  it("a role: enum capabilities (names and numbers), null timestamps and an empty description", () => {
    const role = RoleSchema.parse({
      uid: "0123456789abcdef0123456789abcdef01234567",
      name: "viewer",
      description: "",
      capabilities: ["CAP_IAM_GROUPS_LIST", 1605, "CAP_LIBRARIES_GO_LIST"],
      createTime: null,
      updateTime: null,
    });
    expect(role).toEqual({
      uid: "0123456789abcdef0123456789abcdef01234567",
      name: "viewer",
      capabilities: ["groups.list", "repo.list", "CAP_LIBRARIES_GO_LIST"],
    });
  });

  it("a role binding with the request fields echoed and an identity email", () => {
    const b = RoleBindingSchema.parse({
      uid: "org/0123456789abcdef",
      identity: { uid: "i", name: "ci", description: "", subject: "s", issuer: "https://i", email: "" },
      group: { uid: "org", name: "org", description: "" },
      role: { uid: "r", name: "viewer", description: "" },
      createTime: "2026-11-21T10:00:00.000Z",
      identityUid: "i",
      roleUid: "r",
    });
    expect(b.roleUid).toBe("r");
  });
});

describe("requests as the service expects them", () => {
  const ORG = "0123456789abcdef0123456789abcdef01234567";
  const ROLE = {
    uid: "fedcba9876543210fedcba9876543210fedcba98",
    name: "auditor",
    description: "",
    capabilities: ["CAP_IAM_GROUPS_LIST"],
    createTime: "2026-11-21T10:00:00.000Z",
    updateTime: "2026-11-21T10:00:00.000Z",
  };

  it("a role create and update: capabilities as enum names, only published fields, the mask in proto names", async () => {
    const { agent, origin, pool } = mockApi();
    const sent: { path: string; body: unknown }[] = [];
    const capture = (opts: { path: string; body?: unknown }) => {
      sent.push({ path: opts.path, body: JSON.parse(String(opts.body)) });
      return ROLE;
    };
    pool.intercept({ path: `/iam/v2/roles/${ORG}`, method: "POST" }).reply(200, capture);
    pool
      .intercept({ path: (p) => p.startsWith(`/iam/v2/roles/${ROLE.uid}?`), method: "PATCH" })
      .reply(200, capture);
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    const made = await client.roles.create(ORG, { name: "auditor", capabilities: ["groups.list"] });
    expect(made.capabilities).toEqual(["groups.list"]);
    await client.roles.update(
      ROLE.uid,
      { description: "reads", capabilities: ["groups.list", "identity.list"] },
      { updateMask: ["description", "capabilities"] },
    );
    expect(sent[0]?.body).toEqual({ name: "auditor", capabilities: ["CAP_IAM_GROUPS_LIST"] });
    expect(sent[1]?.body).toEqual({
      description: "reads",
      capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_IDENTITY_LIST"],
    });
    expect(new URL(sent[1]?.path ?? "", origin).searchParams.get("updateMask")).toBe(
      "description,capabilities",
    );
  });

  it("a binding's update mask names the proto field (role_uid)", async () => {
    const { agent, origin, pool } = mockApi();
    let path = "";
    pool
      .intercept({ path: (p) => p.startsWith("/iam/v2/roleBindings/"), method: "PATCH" })
      .reply(200, (opts) => {
        path = opts.path;
        return {
          uid: `${ORG}/0123456789abcdef`,
          identity: { uid: "i", name: "ci" },
          group: { uid: ORG, name: "org" },
          role: { uid: "r", name: "viewer" },
          createTime: "2026-11-21T10:00:00.000Z",
        };
      });
    const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
    await client.roleBindings.update(
      `${ORG}/0123456789abcdef`,
      { roleUid: "r" },
      { updateMask: ["roleUid"] },
    );
    expect(new URL(path, origin).searchParams.get("updateMask")).toBe("role_uid");
  });
});
