// `--data FILE`: state, the organization, the admin token, the signing keys and the page token
// secret survive a restart; fixtures describe only a new database.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { BUILT_IN_ROLE_NAMES } from "../../../sdk/index.js";
import type { Group } from "./support.js";
import { startTestEmulator } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "irv-emulator-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a restart on the same data file keeps groups, the org, the admin token, API tokens and page tokens", async () => {
  const data = join(dir, "state.db");
  const first = await startTestEmulator({ data });
  const port = Number(new URL(first.baseUrl).port);
  const g = await first.group("kept", undefined, "survives");
  await first.group("kept-2");
  await first.group("kept-3");
  const id = await first.identity(g.uid, "ci", "persist-subject");
  await first.ok("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
    body: { identityUid: id.uid, roleUid: await first.roleUid("viewer") },
  });
  const apiToken = (await first.exchange(await first.workloadToken("persist-subject"), id.uid)).body.token;
  const page = await first.ok<{ nextPageToken: string }>("GET", "/iam/v2beta1/groups", {
    query: { page_size: 2 },
  });
  await first.close();

  const second = await startTestEmulator({ data, port });
  try {
    expect(second.orgUid).toBe(first.orgUid);
    expect(second.adminToken).toBe(first.adminToken);
    expect(await second.ok("GET", `/iam/v2beta1/groups/${g.uid}`)).toMatchObject({
      name: "kept",
      description: "survives",
    });
    expect((await second.call("GET", `/iam/v2beta1/groups/${g.uid}`, { token: apiToken })).status).toBe(200);
    const next = await second.ok<{ groups: Group[] }>("GET", "/iam/v2beta1/groups", {
      query: { page_size: 2, page_token: page.nextPageToken },
    });
    expect(next.groups.map((x) => x.name)).toEqual(["kept-2", "kept-3"]);
    const roles = await second.ok<{ roles: unknown[] }>("GET", "/iam/v2beta1/roles");
    // The built-in roles once each: a restart adds none.
    expect(roles.roles).toHaveLength(BUILT_IN_ROLE_NAMES.length);
  } finally {
    await second.close();
  }
});

test("an admin token given at restart replaces the stored one", async () => {
  const data = join(dir, "token.db");
  const first = await startTestEmulator({ data });
  await first.close();
  const second = await startTestEmulator({ data, adminToken: "given-token" });
  try {
    expect(second.adminToken).toBe("given-token");
    expect((await second.call("GET", "/iam/v2beta1/groups", { token: first.adminToken })).status).toBe(401);
    expect((await second.call("GET", "/iam/v2beta1/groups")).status).toBe(200);
  } finally {
    await second.close();
  }
});

test("fixtures load into a new data file only, and a different orgUid for an existing file is refused", async () => {
  const data = join(dir, "fixtures.db");
  const fixtures = join(dir, "fixtures.json");
  writeFileSync(fixtures, JSON.stringify({ groups: [{ name: "from-fixtures" }] }));
  const first = await startTestEmulator({ data, fixtures });
  await first.close();
  const second = await startTestEmulator({ data, fixtures });
  try {
    const found = await second.ok<{ groups: Group[] }>("GET", "/iam/v2beta1/groups", {
      query: { name: "from-fixtures" },
    });
    expect(found.groups).toHaveLength(1);
  } finally {
    await second.close();
  }
  await expect(startTestEmulator({ data, orgUid: "a".repeat(40) })).rejects.toThrow(
    /belongs to organization/,
  );
});
