// Issue 10 item 9: bad input never gets a 5xx. Free-form fields have depth, size and key limits;
// update-mask paths match own fields only; names are well-formed Unicode; a body over the limit
// always gets its code-3 answer, never a reset.
import { Agent, fetch } from "undici";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildCliIfStale, runCli } from "./cli-process.js";
import type { Answer, ErrorBody, TestEmulator } from "./support.js";
import { detail, startTestEmulator } from "./support.js";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

type Violations = { fieldViolations: { field: string; description: string }[] };

/** Asserts code 3 under HTTP 400 and returns the violations. */
function invalid(a: Answer<ErrorBody>): Violations["fieldViolations"] {
  expect(a.status, a.text).toBe(400);
  expect(a.body.code).toBe(3);
  return detail<Violations>(a.body, "BadRequest").fieldViolations;
}

const nested = (levels: number): unknown => {
  let v: unknown = "leaf";
  for (let i = 0; i < levels; i++) v = { next: v };
  return v;
};
const rawNested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("free-form fields", () => {
  // The free-form parts of typed kinds: a clientIds map, the GitHub App map. One association per
  // group, so each create is in a fresh group.
  let groups = 0;
  const freshGroup = async () => (await emu.group(`free-form-${++groups}`)).uid;
  const createAssociations = async (rawBody: string) =>
    emu.call<ErrorBody>("POST", `/iam/v2beta1/accountAssociations/${await freshGroup()}`, {
      rawBody,
      headers: { "content-type": "application/json" },
    });
  const apps = (installations: string) => `{"appInstallations":{"1":{"installations":${installations}}}}`;

  test("regression (deeply nested loose fields crashed the store, HTTP 500): nesting past the limit is code 3 naming the field, on create and update", async () => {
    // 100 000 levels: within 1 MiB, past any recursion the server does.
    for (const levels of [9, 100_000]) {
      const fields = invalid(
        await createAssociations(`{"name":"deep-${levels}","github":${apps(rawNested(levels))}}`),
      );
      // The installations' own field, or (past the body's depth limit) the top-level field.
      expect(fields.map((v) => v.field)).toEqual([expect.stringMatching(/^github(\.appInstallations|$)/)]);
    }
    const uid = await freshGroup();
    await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/accountAssociations/${uid}`, {
      body: {
        name: "shallow",
        github: { appInstallations: { "1": { installations: [{ installationId: "1" }] } } },
      },
    });
    const patched = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/accountAssociations/${uid}`, {
      rawBody: `{"github":${apps(rawNested(100_000))}}`,
      headers: { "content-type": "application/json" },
    });
    expect(invalid(patched)[0]?.field).toMatch(/^github/);
    const masked = await emu.call<ErrorBody>(
      "PATCH",
      `/iam/v2beta1/accountAssociations/${uid}?updateMask=github`,
      {
        body: { github: { appInstallations: { "1": { installations: nested(9) } } } },
      },
    );
    expect(invalid(masked)[0]?.field).toMatch(/^github\.appInstallations\./);
  });

  test("a free-form field over the size or entry limit, or with a reserved key, is code 3 naming it", async () => {
    const big = invalid(
      await createAssociations(
        JSON.stringify({ name: "big", azure: { tenantId: "t", clientIds: { app: "x".repeat(20_000) } } }),
      ),
    );
    expect(big).toEqual([
      {
        field: "azure.clientIds",
        description: expect.stringMatching(/bytes of JSON, more than the limit of 16384/),
      },
    ]);
    const clientIds = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, "c"]));
    const wide = invalid(
      await createAssociations(JSON.stringify({ name: "wide", azure: { tenantId: "t", clientIds } })),
    );
    expect(wide).toEqual([{ field: "azure.clientIds", description: expect.stringMatching(/101 entries/) }]);
    const reserved = invalid(
      await emu.call<ErrorBody>("POST", `/iam/v2beta1/identities/${emu.orgUid}`, {
        body: {
          name: "reserved",
          claimMatch: { issuer: "https://i", subject: "s", claims: { constructor: "x" } },
        },
      }),
    );
    expect(reserved[0]?.field).toMatch(/^claimMatch\.claims/);
    expect(reserved[0]?.description).toMatch(/reserved name/);
  });
});

describe("update masks", () => {
  test.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])(
    "regression (mask paths matched inherited members, HTTP 500): updateMask=%s is code 3 naming updateMask on every kind",
    async (member) => {
      const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${emu.orgUid}`, {
        body: {
          name: `idp-${member}`,
          defaultRole: await emu.roleUid("viewer"),
          oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
        },
      });
      const group = await emu.group(`group-${member.toLowerCase()}`);
      for (const path of [`/iam/v2beta1/identityProviders/${idp.uid}`, `/iam/v2beta1/groups/${group.uid}`]) {
        const a = await emu.call<ErrorBody>("PATCH", `${path}?updateMask=${member}`, { body: {} });
        expect(invalid(a)).toEqual([{ field: "updateMask", description: expect.stringContaining(member) }]);
      }
      // In a body the same name is not a field of the kind: code 3 naming it, like any unknown key
      // (grpc-gateway's FieldMaskFromRequestBody; `__proto__` is refused by the parser), and the
      // resource is unchanged.
      const body = await emu.call<ErrorBody>("PATCH", `/iam/v2beta1/identityProviders/${idp.uid}`, {
        rawBody: `{"${member}": 1}`,
        headers: { "content-type": "application/json" },
      });
      expect(invalid(body)[0]?.field).toBe(member === "__proto__" ? "body" : member);
      const after = await emu.ok<Record<string, unknown>>("GET", `/iam/v2beta1/identityProviders/${idp.uid}`);
      expect(after.name).toBe(`idp-${member}`);
      expect(Object.hasOwn(after, member)).toBe(false);
    },
  );
});

describe("names", () => {
  test("regression (lone surrogates were stored as U+FFFD, so two different names collided): a name with a lone surrogate is code 3, and a name holding U+FFFD itself stays distinct", async () => {
    const group = await emu.group("unicode-names");
    const create = (rawName: string) =>
      emu.call<ErrorBody>("POST", `/iam/v2beta1/identities/${group.uid}`, {
        rawBody: `{"name":"${rawName}","claimMatch":{"issuer":"https://issuer.example","subject":"s"}}`,
        headers: { "content-type": "application/json" },
      });
    expect((await create("\\ufffd")).status).toBe(200);
    for (const lone of ["\\ud800", "\\udfff", "a\\ud83d"]) {
      expect(invalid(await create(lone))).toEqual([
        { field: "name", description: expect.stringMatching(/well-formed Unicode/) },
      ]);
    }
    // A proper surrogate pair is one character, and fine; names differing after a NUL, or only in
    // normalization (NFC é vs NFD e + U+0301), are different names.
    for (const name of ["\\ud83d\\ude00", "x\\u0000a", "x\\u0000b", "\\u00e9", "e\\u0301"]) {
      expect((await create(name)).status, name).toBe(200);
    }
    const page = await emu.ok<{ identities: { name: string }[] }>("GET", "/iam/v2beta1/identities", {
      query: { "uidp.children_of": group.uid },
    });
    expect(page.identities.map((i) => i.name).sort()).toEqual(
      ["\u{1F600}", "\uFFFD", "x\u0000a", "x\u0000b", "\u00e9", "e\u0301"].sort(),
    );
  });
});

describe("bodies over the limit", () => {
  test("regression (about one 10 MB request in four got a connection reset instead of its answer): every one gets code 3", async () => {
    // The server in its own process: sharing one event loop with the client hides the race.
    expect(buildCliIfStale()).toBe(true);
    const run = runCli(["--port", "0"]);
    const info = await run.ready;
    const body = JSON.stringify({ name: "big", description: "x".repeat(10 * 1024 * 1024) });
    const answers: (number | string)[] = [];
    try {
      for (let i = 0; i < 16; i++) {
        const agent = new Agent();
        try {
          const res = await fetch(`${info.baseUrl}/iam/v2beta1/groups/${info.orgUid}`, {
            method: "POST",
            dispatcher: agent,
            headers: { authorization: `Bearer ${info.adminToken}`, "content-type": "application/json" },
            body,
          });
          const answer = (await res.json()) as ErrorBody;
          answers.push(
            res.status === 400 && answer.code === 3 && answer.message.includes("1 MiB")
              ? "code 3"
              : res.status,
          );
        } catch (e) {
          answers.push(String((e as { cause?: { code?: string } }).cause?.code ?? e));
        } finally {
          await agent.close();
        }
      }
    } finally {
      run.child.kill("SIGTERM");
      await run.exit;
    }
    expect(answers).toEqual(Array(16).fill("code 3"));
  });
});
