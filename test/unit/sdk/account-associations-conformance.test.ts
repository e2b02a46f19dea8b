// AccountAssociation against the published definitions (account_associations.proto:158-252): one
// per group, uid = the group's uid; the client reads gateway-written answers (unset blocks `null`,
// int64 as strings) and sends the published field names only.
import { describe, expect, it } from "vitest";
import { AccountAssociationsSchema, IrvClient } from "../../../sdk/index.js";
import { PUBLISHED } from "../../wire-facts.js";
import { keyPaths } from "./key-paths.js";
import { mockApi } from "./mock-api.js";

const GROUP_UID = "0123456789abcdef0123456789abcdef01234567/0123456789abcdef";
const MAPS = ["github.appInstallations", "azure.clientIds", "chainguard.serviceBindings"];

// An answer as the gateway writes it: every block present, the unset ones null.
const ANSWER = {
  uid: GROUP_UID,
  name: "clouds",
  description: "",
  amazon: { account: "123456789012" },
  google: null,
  chainguard: null,
  azure: null,
  createTime: "2026-11-25T10:00:00Z",
  updateTime: "2026-11-25T10:00:00Z",
  github: {
    appInstallations: {
      "1234": { installations: [{ installationId: "98765432109876543", name: "acme" }] },
    },
  },
};

// The published field list of each block, by JSON path (maps and lists as `*`).
const under = (prefix: string, message: keyof typeof PUBLISHED) =>
  PUBLISHED[message].fields.map((f) => `${prefix}.${f}`);
const PUBLISHED_PATHS = new Set([
  ...(PUBLISHED.AccountAssociations.input as readonly string[]),
  ...under("amazon", "AccountAssociations.Amazon"),
  ...under("google", "AccountAssociations.Google"),
  ...under("azure", "AccountAssociations.Azure"),
  "azure.clientIds.*",
  ...under("chainguard", "AccountAssociations.Chainguard"),
  "chainguard.serviceBindings.*",
  ...under("github", "AccountAssociations.GitHub"),
  "github.appInstallations.*",
  ...under("github.appInstallations.*", "AccountAssociations.GitHubAppInstallations"),
  "github.appInstallations.*.installations.*",
  ...under("github.appInstallations.*.installations.*", "AccountAssociations.GitHubInstallation"),
]);

describe("AccountAssociation conformance", () => {
  it("the fixture holds exactly the published fields", () => {
    expect(Object.keys(ANSWER).sort()).toEqual([...PUBLISHED.AccountAssociations.fields].sort());
  });

  it("reads a gateway answer: null blocks absent, installation ids exact int64 strings", () => {
    const a = AccountAssociationsSchema.parse(ANSWER);
    expect(a.uid).toBe(GROUP_UID);
    expect(a.description).toBeUndefined();
    expect(a.google).toBeUndefined();
    expect(a.azure).toBeUndefined();
    expect(a.chainguard).toBeUndefined();
    expect(a.amazon).toEqual({ account: "123456789012" });
    expect(a.github?.appInstallations["1234"]?.installations).toEqual([
      { installationId: "98765432109876543", name: "acme" },
    ]);
    // An app with no installations listed, and installation ids written as numbers, still read.
    const sparse = AccountAssociationsSchema.parse({
      ...ANSWER,
      github: { appInstallations: { "1": {}, "2": { installations: [{ installationId: 7 }] } } },
    });
    expect(sparse.github?.appInstallations).toEqual({
      "1": { installations: [] },
      "2": { installations: [{ installationId: "7", name: undefined }] },
    });
  });

  it("creates the group's association under the group's uid, sending published fields only", async () => {
    const { agent, origin, pool } = mockApi();
    let sent: Record<string, unknown> = {};
    pool
      .intercept({
        path: `/iam/v2/accountAssociations/${GROUP_UID}`,
        method: "POST",
        body: (b) => {
          sent = JSON.parse(b);
          return true;
        },
      })
      .reply(200, ANSWER);
    const client = new IrvClient({ baseUrl: origin, token: "t0ken-value", dispatcher: agent });
    const made = await client.accountAssociations.create(GROUP_UID, {
      name: "clouds",
      amazon: { account: "123456789012" },
      azure: { tenantId: "t", clientIds: { app: "c" } },
      chainguard: { serviceBindings: { INGESTER: "id" } },
      google: { projectId: "p", projectNumber: "1" },
      github: { appInstallations: { "1234": { installations: [{ installationId: 42, name: "acme" }] } } },
    });
    expect(made.uid).toBe(GROUP_UID);
    // int64 goes out as a decimal string, as protojson writes it.
    expect(sent.github).toEqual({
      appInstallations: { "1234": { installations: [{ installationId: "42", name: "acme" }] } },
    });
    const sentPaths = keyPaths(sent, MAPS);
    for (const path of sentPaths) expect(PUBLISHED_PATHS, path).toContain(path);
  });
});
