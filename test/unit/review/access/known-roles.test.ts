// The one role mapping of the access review (`pulumi-irv access-review` and the access-broadening
// policy both read the roles outside the stack through it): every page, and of each role only what
// the review uses.
import { expect, test } from "vitest";
import { knownRolesOf } from "../../../../review/index.js";
import { IrvClient } from "../../../../sdk/index.js";
import { mockApi } from "../../sdk/mock-api.js";

const role = (uid: string, name: string, capabilities: string[]) => ({
  uid,
  name,
  description: `the ${name} role`,
  capabilities,
  createTime: "2026-11-21T10:00:00.000Z",
  updateTime: "2026-11-21T10:00:00.000Z",
});

test("knownRolesOf reads every page of roles and keeps uid, name and capabilities (display names)", async () => {
  const { agent, origin, pool } = mockApi();
  pool
    .intercept({ path: "/iam/v2/roles?page_size=200", method: "GET" })
    .reply(200, { roles: [role("aa01", "viewer", ["CAP_IAM_GROUPS_LIST"])], nextPageToken: "p2" });
  pool
    .intercept({ path: "/iam/v2/roles?page_size=200&page_token=p2", method: "GET" })
    .reply(200, { roles: [role("bb02", "deployer", ["CAP_IAM_ROLE_BINDINGS_CREATE"])], nextPageToken: "" });
  const client = new IrvClient({ baseUrl: origin, token: "t", dispatcher: agent });
  expect(await knownRolesOf(client)).toEqual([
    { uid: "aa01", name: "viewer", capabilities: ["groups.list"] },
    { uid: "bb02", name: "deployer", capabilities: ["role_bindings.create"] },
  ]);
});
