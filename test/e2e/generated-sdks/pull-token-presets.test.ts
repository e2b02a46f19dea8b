// A pull token and the three CI identity presets from Python and Go programs written with the
// generated SDKs, end to end on the packaged plugin against the emulator (issue 40: only the YAML
// path, test/e2e/plugin/yaml-pull-token.test.ts, ran them). Per language one `up` and one destroy:
// the token's password logs in at the STS and lists the team's repos, and stays out of the state in
// plain text; the GitHub and GitLab presets' identities are assumed with tokens of the repository
// or project they name (the emulator's issuer mints them) and refused one whose name only matches
// an unescaped `.`; the AWS preset's identity holds the escaped, anchored role pattern; destroy
// removes the token's identity and binding.
// The same programs declare issue 45's kinds on the plugin (the TypeScript program of
// test/e2e/provider/registry-kinds.test.ts, in each SDK): two repos, one synced with a custom overlay
// and one with bundles and aliases, a tag, an overlay bound to a repo, a subscription, and an external
// group mapped to a role on an identity provider; the same up makes them and the same destroy removes
// them in order (the tag and binding before their repo, the mapping before its identity provider).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir, pulumiBinDir } from "../harness/index.js";
import type { PreparedGoProgram } from "../support/go-program.js";
import { prepareGoProgram } from "../support/go-program.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { seedRepo, startTestEmulator } from "../support/irv-emulator.js";
import type { PreparedPythonProgram } from "../support/python-project.js";
import { preparePythonProgram } from "../support/python-project.js";

type Prepared = PreparedPythonProgram | PreparedGoProgram;
type Outputs = Record<string, string>;
const DIGEST = `sha256:${"1".repeat(64)}`;

const PROGRAMS: { language: string; prepare: () => Promise<Prepared> }[] = [
  {
    language: "Python",
    prepare: () => preparePythonProgram(fixtureDir("python-pull-token-presets"), pulumiBinDir()),
  },
  { language: "Go", prepare: () => prepareGoProgram(fixtureDir("go-pull-token-presets"), pulumiBinDir()) },
];

for (const { language, prepare } of PROGRAMS) {
  describe(`a pull token and the CI presets from ${language} on pulumi-resource-irv`, () => {
    let irv: TestEmulator;
    let stack: TestStack;
    let program: Prepared;
    let groupUid: string;
    let outputs: Outputs;
    let upOutput: string;

    const exchange = async (identity: string, token: string) => {
      const { authUrl, baseUrl } = irv.emulator;
      const url = `${authUrl}/sts/exchange?aud=${encodeURIComponent(baseUrl)}&identity=${encodeURIComponent(identity)}`;
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as { token?: string } };
    };
    // A workload token of the emulator's issuer, shaped like the CI system's.
    const mint = async (subject: string, claims: Record<string, string>) => {
      const res = await fetch(`${irv.emulator.issuerUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ subject, claims }),
      });
      return ((await res.json()) as { token: string }).token;
    };

    beforeAll(async () => {
      program = await prepare();
      irv = await startTestEmulator();
      groupUid = (await irv.admin.groups.create(irv.emulator.orgUid, { name: "team" })).uid;
      await seedRepo(irv, groupUid, "app");
      stack = await createStack({
        program: program.program,
        config: { ...irv.config, groupUid, issuerUrl: irv.emulator.issuerUrl },
        env: program.env,
      });
      await program.beforeUp(stack);
      const result = await stack.up();
      expect(diagnostics(result.events, "error")).toEqual([]);
      outputs = result.outputs as Outputs;
      // What the run prints and every engine event but `debug:` diagnostics: the Python SDK's own
      // debug log of the stack's outputs ("register resource outputs prepared: … props=…") carries
      // them unmasked, secrets included; Pulumi shows it only with --debug (not ours to change).
      const shown = result.events.filter(
        (e) => (e as { diagnosticEvent?: { severity?: string } }).diagnosticEvent?.severity !== "debug",
      );
      upOutput = result.stdout + result.stderr + JSON.stringify(shown);
    });

    afterAll(async () => {
      await stack?.dispose();
      await irv?.close();
      program?.dispose();
    });

    it("the token's password lists the team's repos at the STS, and is in neither the state nor the output in plain text", async () => {
      const docker = JSON.parse(outputs.dockerConfigJson ?? "{}") as {
        auths: Record<string, { username: string }>;
      };
      expect(docker.auths["cgr.dev"]?.username).toBe(outputs.username);
      const { status, body } = await exchange(outputs.username ?? "", outputs.password ?? "");
      expect(status).toBe(200);
      const repos = await fetch(`${irv.emulator.baseUrl}/registry/v2/repos?uidp.descendants_of=${groupUid}`, {
        headers: { authorization: `Bearer ${body.token}` },
      });
      const names = ((await repos.json()) as { repos: { name: string }[] }).repos.map((r) => r.name);
      // The seeded repo and the program's own two (issue 45's kinds, below).
      expect(names.sort()).toEqual(["app", "web", "web-mirror"]);
      const signature = (outputs.password ?? "").split(".")[2] ?? "";
      expect(signature).not.toBe("");
      expect(JSON.stringify(await stack.exportState())).not.toContain(signature);
      expect(upOutput).not.toContain(signature);
    });

    it("githubActionsClaims: a token of acme/a.b's production environment assumes the identity, one of acme/aXb does not", async () => {
      const token = (repo: string) =>
        mint(`repo:${repo}:environment:production`, { repository: repo, environment: "production" });
      expect((await exchange(outputs.githubUid ?? "", await token("acme/a.b"))).status).toBe(200);
      expect((await exchange(outputs.githubUid ?? "", await token("acme/aXb"))).status).toBe(403);
    });

    it("gitlabCiClaims: a token of acme/pay.ments' production environment assumes the identity, one of acme/payXments does not", async () => {
      const token = (project: string) =>
        mint(`project_path:${project}:ref_type:branch:ref:main`, {
          project_path: project,
          environment: "production",
        });
      expect((await exchange(outputs.gitlabUid ?? "", await token("acme/pay.ments"))).status).toBe(200);
      expect((await exchange(outputs.gitlabUid ?? "", await token("acme/payXments"))).status).toBe(403);
    });

    it("awsRoleIdentity: the identity holds the account and the escaped, anchored role pattern", async () => {
      expect((await irv.admin.identities.get(outputs.awsUid ?? "")).awsIdentity).toMatchObject({
        awsAccount: "123456789012",
        arnPattern: "arn:aws:sts::123456789012:assumed-role/deploy\\.bot/.+",
        userIdPattern: "AROA[0-9A-Z]+:.+",
      });
    });

    it("makes issue 45's kinds: the synced repo inheriting from its source, the tag, the bound overlay, the subscription and the mapping at the root", async () => {
      const { admin, emulator } = irv;
      const web = await admin.repos.get(outputs.webUid ?? "");
      expect(web).toMatchObject({ name: "web", bundles: ["base"], aliases: ["www"] });
      const mirror = await admin.repos.get(outputs.mirrorUid ?? "");
      expect(mirror).toMatchObject({
        name: "web-mirror",
        sync_config: { source: web.uid, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app" },
        customOverlay: { contents: { packages: ["curl"] }, environment: { TZ: "UTC" } },
      });
      expect(outputs.mirrorBundles).toEqual(["base"]);
      const tags = await admin.tags.collect({ childrenOf: web.uid });
      expect(tags.map((t) => [t.uid, t.name, t.digest])).toEqual([[outputs.tagUid, "latest", DIGEST]]);
      const [binding, ...more] = await admin.overlayBindings.collect({ childrenOf: web.uid });
      expect(more).toEqual([]);
      expect(binding).toMatchObject({ tags: ["latest"], overlay: { name: "tools" } });
      expect(outputs.boundOverlay).toBe("tools");
      expect((await admin.subscriptions.get(outputs.hookUid ?? "")).sink).toBe(
        "https://hooks.example.com/irv",
      );
      const mappings = await admin.externalGroupRoleMappings.collect({ childrenOf: outputs.oktaUid ?? "" });
      expect(mappings.map((m) => [m.externalGroupId, m.scope])).toEqual([["admins", emulator.orgUid]]);
      expect(outputs.mappingScope).toBe(emulator.orgUid);
    });

    it("destroy removes everything it made: the token's identity and binding, the repos after their tag and binding, the mapping before its identity provider", async () => {
      const result = await stack.destroy();
      expect(diagnostics(result.events, "error")).toEqual([]);
      const { admin } = irv;
      const left = await Promise.all([
        admin.identities.collect({ childrenOf: groupUid }),
        admin.roleBindings.collect({ childrenOf: groupUid }),
        // The repo seeded before the run is the only one left: the program never managed it.
        admin.repos.collect({ descendantsOf: groupUid }).then((repos) => repos.map((r) => r.name)),
        admin.overlays.collect({ childrenOf: groupUid }),
        admin.subscriptions.collect({ childrenOf: groupUid }),
        admin.identityProviders.collect({ childrenOf: groupUid }),
      ]);
      expect(left).toEqual([[], [], ["app"], [], [], []]);
    });
  });
}
