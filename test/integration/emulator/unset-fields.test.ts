// Every kind's answers carry every published field, an unset one as grpc-gateway writes it
// (protojson EmitUnpopulated: "" for a string, null for a message, [] and {} for lists and maps).
// Regression (issue 34): an account association's `description` and an invite's `email`, `code`
// (on reads) and `keyId` were missing from the answers.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MessageFacts } from "../../wire-facts.js";
import { PUBLISHED } from "../../wire-facts.js";
import type { TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

/**
 * Published fields an answer never carries, each with the reason: input-only fields, proto3
 * `optional` fields (left out when unset), members of a oneof (only the set one is written), and the
 * fields the emulator does not model (the client drops them; docs/contract-decisions.md).
 */
const NOT_ANSWERED: Record<string, readonly string[]> = {
  // Not modelled: `kind`, `status` (iam/groups.proto:247-251).
  Group: ["kind", "status"],
  // Not modelled: `email`, `emailUnverified`, `company` (:194-200); the four variants are a oneof (:216-228).
  Identity: [
    "email",
    "emailUnverified",
    "company",
    "claimMatch",
    "staticKeys",
    "awsIdentity",
    "servicePrincipal",
  ],
  // Not modelled: the bound identity's `email` (iam/role_bindings.proto:224).
  "RoleBinding.identity": ["email"],
  // `clientSecret` is write-only; `groupsClaim`, `correlationRule`, `pkceEnabled` are not modelled.
  "IdentityProvider.OIDC": ["clientSecret", "groupsClaim", "correlationRule", "pkceEnabled"],
  // `ttl` is INPUT_ONLY (iam/group_invites.proto:143-148).
  GroupInvite: ["ttl"],
  // proto3 `optional` (vuln/advisories.proto:80, :110).
  Advisory: ["deleteTime", "legacyAdvisoryId"],
};

function missing(message: keyof typeof PUBLISHED, answer: unknown): string[] {
  const facts: MessageFacts = PUBLISHED[message];
  const skip = NOT_ANSWERED[message] ?? [];
  const keys = Object.keys(answer as Record<string, unknown>);
  return facts.fields.filter((f) => !skip.includes(f) && !keys.includes(f)).map((f) => `${message}.${f}`);
}

type Answer = Record<string, unknown>;

interface KindCase {
  collection: string;
  message: keyof typeof PUBLISHED;
  /** Nested published messages: the answer's key and the message it holds. */
  nested?: Record<string, keyof typeof PUBLISHED>;
  /** Makes one resource with only its required fields; returns the create answer. */
  create(group: string): Promise<Answer>;
  /** A PATCH body that changes something, when the kind can be updated. */
  update?: Answer;
}

let roleUid = "";
let identityUid = "";

const iamCreate = (collection: string, body: Answer) => (group: string) =>
  emu.ok<Answer>("POST", `/iam/v2beta1/${collection}/${group}`, { body });

const CASES: KindCase[] = [
  {
    collection: "groups",
    message: "Group",
    create: iamCreate("groups", { name: "bare" }),
    update: { name: "bare-2" },
  },
  {
    collection: "identities",
    message: "Identity",
    create: (g) =>
      iamCreate("identities", { name: "bare", claimMatch: { issuer: emu.issuerUrl, subject: "s" } })(g),
    update: { name: "bare-2" },
  },
  {
    collection: "roles",
    message: "Role",
    create: iamCreate("roles", { name: "bare", capabilities: ["CAP_IAM_GROUPS_LIST"] }),
    update: { name: "bare-2" },
  },
  {
    collection: "roleBindings",
    message: "RoleBinding",
    nested: { identity: "RoleBinding.identity" },
    create: (g) => iamCreate("roleBindings", { identityUid, roleUid })(g),
    update: { roleUid: "" },
  },
  {
    collection: "identityProviders",
    message: "IdentityProvider",
    nested: { oidc: "IdentityProvider.OIDC" },
    create: (g) =>
      iamCreate("identityProviders", {
        name: "bare",
        defaultRole: roleUid,
        oidc: { issuer: "https://idp.example.com", clientId: "c", clientSecret: "s3cret-value" },
      })(g),
    update: { name: "bare-2" },
  },
  {
    collection: "accountAssociations",
    message: "AccountAssociations",
    create: iamCreate("accountAssociations", { name: "bare" }),
    update: { name: "bare-2" },
  },
  {
    collection: "groupInvites",
    message: "GroupInvite",
    nested: { role: "GroupInvite.role" },
    create: (g) => iamCreate("groupInvites", { roleUid, ttl: "3600s" })(g),
  },
];

describe("unset fields in every kind's answers", () => {
  let group = "";
  beforeAll(async () => {
    group = (await emu.group("unset-fields")).uid;
    roleUid = await emu.roleUid("viewer");
    identityUid = (await emu.identity(group, "bound")).uid;
  });

  test.each(CASES)(
    "$collection: create, get, list and update answers carry every published field",
    async (c) => {
      const answers: [string, Answer][] = [];
      const created = await c.create(group);
      answers.push(["create", created]);
      const uid = String(created.uid);
      answers.push(["get", await emu.ok<Answer>("GET", `/iam/v2beta1/${c.collection}/${uid}`)]);
      const page = await emu.ok<Record<string, Answer[]>>("GET", `/iam/v2beta1/${c.collection}`, {
        query: { "uidp.children_of": group },
      });
      const listed = (page[c.collection] ?? []).find((r) => r.uid === uid);
      expect(listed, `${c.collection} list`).toBeDefined();
      answers.push(["list", listed as Answer]);
      if (c.update !== undefined) {
        const body = c.collection === "roleBindings" ? { roleUid: await emu.roleUid("editor") } : c.update;
        answers.push([
          "update",
          await emu.ok<Answer>("PATCH", `/iam/v2beta1/${c.collection}/${uid}`, { body }),
        ]);
      }
      for (const [what, answer] of answers) {
        const gaps = missing(c.message, answer);
        for (const [key, message] of Object.entries(c.nested ?? {}))
          gaps.push(...missing(message, answer[key]));
        expect(gaps, `${c.collection} ${what}`).toEqual([]);
      }
    },
  );

  test("an unset string is answered as an empty string, not left out", async () => {
    const g = (await emu.group("unset-strings")).uid;
    const association = await emu.ok<Answer>("POST", `/iam/v2beta1/accountAssociations/${g}`, {
      body: { name: "bare" },
    });
    expect(association.description).toBe("");
    const invite = await emu.ok<Answer>("POST", `/iam/v2beta1/groupInvites/${g}`, {
      body: { roleUid, ttl: "3600s" },
    });
    expect(invite).toMatchObject({ email: "", keyId: "" });
    expect(String(invite.code).length).toBeGreaterThan(0);
    // The code is "only returned on create" (iam/group_invites.proto:157): reads answer "".
    expect(await emu.ok<Answer>("GET", `/iam/v2beta1/groupInvites/${String(invite.uid)}`)).toMatchObject({
      email: "",
      code: "",
      keyId: "",
    });
  });

  test("the read-only kinds carry every published field", async () => {
    const g = (await emu.group("unset-read-only")).uid;
    const repo = await emu.ok<Answer>("POST", "/_emulator/repos", { body: { parentUid: g, name: "app" } });
    await emu.ok("POST", "/_emulator/tags", { body: { repoUid: repo.uid, name: "v1" } });
    await emu.ok("POST", "/_emulator/advisories", { body: { parentUid: g } });
    const reads: [string, keyof typeof PUBLISHED, string][] = [
      ["/registry/v2beta1/repos", "Repo", g],
      ["/registry/v2beta1/tags", "Tag", String(repo.uid)],
      ["/vulnerabilities/v2beta1/advisories", "Advisory", g],
    ];
    for (const [path, message, parent] of reads) {
      const page = await emu.ok<Record<string, Answer[]>>("GET", path, {
        query: { "uidp.children_of": parent },
      });
      const items = Object.values(page).find(Array.isArray) as Answer[];
      expect(items.length, path).toBe(1);
      const one = items[0] as Answer;
      expect(missing(message, one), `${path} list`).toEqual([]);
      expect(
        missing(message, await emu.ok<Answer>("GET", `${path}/${String(one.uid)}`)),
        `${path} get`,
      ).toEqual([]);
    }
  });
});
