// The lookups as a program calls them (settings from IRV_* in the environment), against the
// emulator over HTTP: exactly one or a clear error, capabilities in getRoles, tags of a repo, a repo's sync settings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import * as irv from "../../../provider/index.js";
import { IrvClient } from "../../../sdk/index.js";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let admin: IrvClient;
let platform: string;
let teamA: string;
const saved = { ...process.env };

beforeAll(async () => {
  emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  process.env.IRV_BASE_URL = emulator.baseUrl;
  process.env.IRV_TOKEN = emulator.adminToken;
  platform = (await admin.groups.create(emulator.orgUid, { name: "platform" })).uid;
  teamA = (await admin.groups.create(platform, { name: "team-a" })).uid;
  await admin.groups.create(emulator.orgUid, { name: "team-a" });
});

afterAll(async () => {
  process.env = saved;
  await admin.close();
  await emulator.close();
});

describe("getGroup", () => {
  it("finds one group by uid, or by name under a parent", async () => {
    expect((await irv.iam.getGroup({ uid: teamA })).name).toBe("team-a");
    expect((await irv.iam.getGroup({ name: "team-a", parentUid: platform })).uid).toBe(teamA);
  });

  it("refuses an ambiguous name, listing the uids and saying to pass parentUid", async () => {
    await expect(irv.iam.getGroup({ name: "team-a" })).rejects.toThrow(
      /irv\.iam\.getGroup failed: 2 groups named "team-a" \(.+\); pass parentUid to choose one/,
    );
    await expect(irv.iam.getGroup({ name: "nope" })).rejects.toThrow(
      'irv.iam.getGroup failed: no groups named "nope"',
    );
  });
});

describe("getIdentity", () => {
  it("finds an identity by name in its group and by issuer and subject", async () => {
    const claimMatch = {
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/a:ref:refs/heads/main",
    };
    const ci = await admin.identities.create(teamA, { name: "ci", claimMatch });
    expect((await irv.iam.getIdentity({ name: "ci", groupUid: teamA })).uid).toBe(ci.uid);
    expect((await irv.iam.getIdentity(claimMatch)).uid).toBe(ci.uid);
    await expect(irv.iam.getIdentity({ ...claimMatch, subject: "other" })).rejects.toThrow(
      /no identities with issuer .+ and subject "other"/,
    );
  });
});

describe("getRoles", () => {
  it("scopes to the custom roles of one group and returns their capabilities", async () => {
    const auditor = await admin.roles.create(platform, { name: "auditor", capabilities: ["groups.list"] });
    const { roles } = await irv.iam.getRoles({ parentUid: platform });
    expect(roles.map((r) => [r.uid, r.capabilities])).toEqual([[auditor.uid, ["groups.list"]]]);
    const viewer = await irv.iam.getRole({ name: "viewer" });
    expect(viewer.capabilities).toContain("groups.list");
  });
});

describe("getIdentityProviders and getTags", () => {
  it("lists identity providers without secrets, and the tags of a repo", async () => {
    const viewer = await irv.iam.getRole({ name: "viewer" });
    await admin.identityProviders.create(teamA, {
      name: "sso",
      defaultRole: viewer.uid,
      oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: "never-shown" },
    });
    const { identityProviders } = await irv.iam.getIdentityProviders({ descendantsOf: platform });
    expect(identityProviders.map((p) => p.name)).toEqual(["sso"]);
    expect(JSON.stringify(identityProviders)).not.toContain("never-shown");

    const control = (path: string, body: unknown) =>
      fetch(`${emulator.baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${emulator.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ uid: string }>);
    const repo = await control("/_emulator/repos", { parentUid: teamA, name: "app" });
    for (const name of ["v2", "v1"]) await control("/_emulator/tags", { repoUid: repo.uid, name });
    const { tags } = await irv.registry.getTags({ repoUid: repo.uid, orderBy: "name" });
    expect(tags.map((t) => t.name)).toEqual(["v1", "v2"]);
  });
});

describe("getRepo and getRepos", () => {
  // Regression: they answered the wire's `sync_config`, which the Go SDK generated from the schema
  // named `Sync_config` (of type `GetRepoSync_config`); the package's name is `syncConfig`.
  it("answer a synced repo's settings as syncConfig, as the Repo resource names them, and none for a repo of its own", async () => {
    const team = (await admin.groups.create(platform, { name: "repos" })).uid;
    const app = await admin.repos.create(team, { name: "app" });
    const mirror = await admin.repos.create(team, { name: "mirror", sync_config: { source: app.uid } });
    const one = await irv.registry.getRepo({ uid: mirror.uid });
    expect(one.syncConfig?.source).toBe(app.uid);
    expect(one).not.toHaveProperty("sync_config");
    const { repos } = await irv.registry.getRepos({ childrenOf: team, orderBy: "name" });
    expect(repos.map((r) => [r.name, r.syncConfig?.source])).toEqual([
      ["app", undefined],
      ["mirror", app.uid],
    ]);
    expect(repos.some((r) => "sync_config" in r)).toBe(false);
  });
});

describe("getAdvisories", () => {
  const seed = (body: object) =>
    fetch(`${emulator.baseUrl}/_emulator/advisories`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ parentUid: platform, ...body }),
    }).then((r) => r.json() as Promise<{ advisoryId: string }>);

  it("finds advisories by the vulnerability ids they cover or by CGA id, in the published shape", async () => {
    const log4j = await seed({
      aliases: ["CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q"],
      artifactName: "log4j",
      severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H" }],
    });
    const other = await seed({ aliases: ["CVE-2026-0002"], artifactName: "openssl" });
    const byAlias = await irv.vulnerabilities.getAdvisories({
      descendantsOf: platform,
      aliases: ["GHSA-jfh8-c2jp-5v3q"],
    });
    expect(byAlias.advisories).toMatchObject([
      {
        advisoryId: log4j.advisoryId,
        artifactName: "log4j",
        severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H" }],
      },
    ]);
    const byId = await irv.vulnerabilities
      .getAdvisoriesOutput({ descendantsOf: platform, advisoryIds: [other.advisoryId] })
      .advisories.apply((a) => a.map((x) => x.artifactName));
    expect(await new Promise((resolve) => byId.apply(resolve))).toEqual(["openssl"]);
    expect((await irv.vulnerabilities.getAdvisories({ descendantsOf: platform })).advisories).toHaveLength(2);
  });

  it("refuses a name, which the service would ignore and answer every advisory", async () => {
    await expect(irv.vulnerabilities.getAdvisories({ name: "CVE-2021-44228" })).rejects.toThrow(
      /irv\.vulnerabilities\.getAdvisories failed: advisories have no name, .*filter by advisoryIds \(CGA-…\) or aliases/,
    );
  });
});
