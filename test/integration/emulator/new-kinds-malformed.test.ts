// Issue 45: the new kinds' routes never answer 5xx, however malformed the request: every write and
// read path of repos (and the readme), tags, overlays, overlay bindings, subscriptions and external
// group role mappings (and :batchDelete) gets bodies of the wrong shape and uids that are not uids,
// and answers a 4xx naming a cause.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody, TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

let emu: TestEmulator;
const uids: Record<string, string> = {};
beforeAll(async () => {
  emu = await startTestEmulator();
  const team = (await emu.group("malformed")).uid;
  const repo = await emu.ok<{ uid: string }>("POST", `/registry/v2/repos/${team}`, { body: { name: "r" } });
  const overlay = await emu.ok<{ uid: string }>("POST", `/registry/v2beta1/overlays/${team}`, {
    body: { name: "o", config: { contents: { packages: ["p"] } } },
  });
  const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2/identityProviders/${team}`, {
    body: {
      name: "sso",
      defaultRole: await emu.roleUid("viewer"),
      oidc: { issuer: "https://idp.example.com", clientId: "c", clientSecret: "s" },
    },
  });
  Object.assign(uids, { team, repo: repo.uid, overlay: overlay.uid, idp: idp.uid });
});
afterAll(() => emu.close());

const BODIES: unknown[] = [
  null,
  [],
  "text",
  42,
  {},
  { name: 7, sync_config: "x", customOverlay: [], config: "x", overlay: 5, tags: "latest", sink: 3 },
  { name: "x", sync_config: { source: { nested: true } }, customOverlay: { contents: { packages: [1] } } },
  { name: "x", digest: ["sha256:"], externalGroupId: {}, roleUid: 1, scope: [] },
  { config: { contents: { packages: ["a"] }, accounts: { users: [{ uid: "x" }] } }, name: "y" },
  { overlay: "o", tags: ["a", "a"] },
  { parent: "", names: "x" },
  { parent: "not/a/uid", names: [1, null] },
  { content: { nested: true } },
  { sink: `https://${"a".repeat(70_000)}.example.com` },
];

describe("malformed requests to the new kinds", () => {
  it("every write path answers a 4xx with a code (or 200 for an empty update), never a 5xx", async () => {
    const paths = [
      ["POST", `/registry/v2/repos/${uids.team}`],
      ["PATCH", `/registry/v2/repos/${uids.repo}`],
      ["PATCH", `/registry/v2/repos/${uids.repo}/readme`],
      ["POST", `/registry/v2/tags/${uids.repo}`],
      ["POST", `/registry/v2beta1/overlays/${uids.team}`],
      ["POST", `/registry/v2beta1/overlayBindings/${uids.repo}`],
      ["POST", `/events/v2/subscriptions/${uids.team}`],
      ["POST", `/iam/v2/externalGroupRoleMappings/${uids.idp}`],
      ["POST", "/iam/v2/externalGroupRoleMappings:batchDelete"],
    ] as const;
    for (const [method, path] of paths) {
      for (const body of BODIES) {
        const a = await emu.call<ErrorBody>(method, path, {
          rawBody: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        });
        const what = `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${a.text.slice(0, 200)}`;
        expect(a.status, what).toBeLessThan(500);
        // Only an empty update ({}) changes nothing and is answered 200.
        if (a.status !== 200) expect(typeof a.body.code, what).toBe("number");
      }
    }
  });

  it("uids that are not uids, on every read and delete path, are 4xx", async () => {
    for (const uid of [
      "",
      "x",
      "../../etc",
      `${uids.team}/zz`,
      "a".repeat(5000),
      `${uids.repo}/readme/readme`,
    ]) {
      for (const base of [
        "/registry/v2/repos",
        "/registry/v2/tags",
        "/registry/v2beta1/overlays",
        "/registry/v2beta1/overlayBindings",
        "/events/v2/subscriptions",
        "/iam/v2/externalGroupRoleMappings",
      ]) {
        for (const method of ["GET", "DELETE"]) {
          const a = await emu.call(method, `${base}/${uid}`);
          expect(a.status, `${method} ${base}/${uid.slice(0, 60)}`).toBeLessThan(500);
        }
      }
    }
  });
});
