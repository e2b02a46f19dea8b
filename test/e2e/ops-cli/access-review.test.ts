// `pulumi-irv access-review` and the `access-broadening` gate on the real engine against the
// emulator: one stack brought up once, then each edit of its spec previewed and reviewed (never
// applied): a description edit (no access change), owner and editor at the root (risky: root), one
// edit with three risky changes that do not touch each other (a custom role gaining
// role_bindings.create, a new identity and its binding unknown at preview, the last owner binding
// removed: a lock-out), a subjectPattern broadened to repo:acme/.* (broad matcher) and a group moved
// under another parent. Each checks the rows of the JSON and the exit code with --fail-on risky; the
// gate (no before file: the pack reads the stack itself; approvals from the project directory)
// blocks the risky ones without an approval and passes with one. A preview costs seconds of CPU, so
// each path is previewed once: the risk classes themselves are unit-tested on the review model.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewJson } from "../../../review/index.js";
import { mermaidBlocks, parseMermaid } from "../../support/mermaid-parse.js";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir, policyViolations, pulumiBinDir, runPulumi } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { runOpsCli } from "../support/ops-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PACK = path.join(root, "node_modules", "pulumi-irv-policy");
const work = mkdtempSync(path.join(tmpdir(), "irv-access-review-"));

type Spec = {
  groups: { key: string; parent: string; description?: string }[];
  identities: { key: string; group: string; subject?: string; subjectPattern?: string }[];
  roles: { key: string; group: string; capabilities: string[] }[];
  bindings: { key: string; group: string; identity: string; role: string }[];
};
const BASE: Spec = {
  groups: [
    { key: "platform", parent: "org" },
    { key: "shared", parent: "org" },
    { key: "payments", parent: "platform" },
  ],
  identities: [
    { key: "ci", group: "platform", subject: "repo:acme/app:ref:refs/heads/main" },
    { key: "admin", group: "org", subject: "repo:acme/infra:ref:refs/heads/main" },
    { key: "auditor", group: "shared", subject: "repo:acme/audit:ref:refs/heads/main" },
  ],
  roles: [{ key: "deployer", group: "platform", capabilities: ["groups.list"] }],
  bindings: [
    { key: "ci-viewer", group: "platform", identity: "ci", role: "viewer" },
    { key: "ci-deployer", group: "payments", identity: "ci", role: "deployer" },
    { key: "admin-owner", group: "org", identity: "admin", role: "owner" },
    { key: "auditor-viewer", group: "shared", identity: "auditor", role: "viewer" },
  ],
};
const edit = (f: (s: Spec) => void): Spec => {
  const s = structuredClone(BASE);
  f(s);
  return s;
};

describe("pulumi-irv access-review and the access-broadening gate", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let before: string;
  let roles: { name: string; capabilities: string[] }[];

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, orgUid: irv.emulator.orgUid, spec: JSON.stringify(BASE) },
    });
    await stack.up();
    before = path.join(work, "before.json");
    writeFileSync(before, JSON.stringify(await stack.exportState()));
    roles = await irv.admin.roles.collect();
  });
  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  // Each preview costs seconds of CPU (the engine, the program, the providers, the pack), so a step
  // previews only for what it asserts: `setSpec` alone where only the pack's preview follows, one
  // JSON review that is also the gate (--fail-on risky sets its exit code in any format), and the
  // markdown comment only where its text is asserted.
  const setSpec = (spec: Spec) => stack.setConfig({ spec: JSON.stringify(spec) });
  const reviewArgs = (extra: string[]) => [
    "access-review",
    "--stack",
    stack.stackName,
    "--cwd",
    stack.projectDir,
    ...extra,
  ];

  async function review(spec: Spec, extra: string[] = []) {
    await setSpec(spec);
    const gate = await runOpsCli([...reviewArgs(extra), "--format", "json", "--fail-on", "risky"], {
      env: stack.env,
    });
    const doc = JSON.parse(gate.stdout) as ReviewJson;
    if (gate.exitCode === 0) expect(gate.stderr).toBe("");
    return { doc, diff: doc.stacks[0]!.diff, gate };
  }

  /** The markdown comment of the spec last set, gated as the pipeline gates it. */
  const comment = (extra: string[] = []) =>
    runOpsCli([...reviewArgs(extra), "--format", "markdown", "--fail-on", "risky"], { env: stack.env });

  // The gate as a team turns it on: the pack with the roles only — no `before` (the policy reads the
  // stack's state itself) and no approvals path (it reads access-approvals.yaml in the project
  // directory, where the entries given here are written for this preview).
  // `bare`: the pack as docs/policy-pack.md's two lines run it, with no policy config at all (the
  // roles, too, are the policy's to find).
  async function policyGate(
    entries: string[] = [],
    others: { "access-broadening"?: object; [policy: string]: object | undefined } = {},
    bare = false,
  ) {
    const approvalsFile = path.join(stack.projectDir, "access-approvals.yaml");
    if (entries.length > 0)
      writeFileSync(
        approvalsFile,
        `approvals:\n${entries.map((e) => `  - ${e}\n    approvedBy: e2e\n    until: 2999-12-31\n`).join("")}`,
      );
    const config = path.join(work, "policy-config.json");
    writeFileSync(
      config,
      JSON.stringify({ ...others, "access-broadening": { roles, ...others["access-broadening"] } }),
    );
    try {
      const result = await stack.preview({
        policyPacks: [PACK],
        ...(bare ? {} : { policyPackConfigs: [config] }),
        allowFailure: true,
      });
      const all = policyViolations(result.events);
      const gate = all.filter((v) => v.policyName === "access-broadening");
      const advisory = all.filter((v) => v.policyName === "access-broadening-advisory");
      return {
        exitCode: result.exitCode,
        messages: gate.map((v) => v.message),
        advisory: advisory.map((v) => v.message),
      };
    } finally {
      rmSync(approvalsFile, { force: true });
    }
  }

  // One approval entry naming the risky rows (and the lock-out) by id.
  const ids = (doc: ReviewJson) => [
    `rows: [${[
      ...doc.stacks.flatMap((s) => s.diff.filter((r) => r.risks.length > 0).map((r) => r.id)),
      ...doc.stacks.flatMap((s) => (s.lockOut ? [s.lockOut.id] : [])),
    ].join(", ")}]`,
  ];

  it("a description edit is no access change: empty diff, 'No access change.', exit 0; the pack with no before file passes though the stack holds owner at the root; the admin token appears in neither report", async () => {
    const token = String((irv.config["irv:token"] as { value: string }).value);
    const { doc, diff, gate } = await review(
      edit((s) => {
        s.groups[0]!.description = "the platform team";
      }),
    );
    expect(diff).toEqual([]);
    expect(doc.summary).toBe("No access change.");
    expect(doc.stacks[0]!.after.length).toBeGreaterThan(0);
    expect(gate.exitCode).toBe(0);
    // The admin token is a secret config value: it reaches neither the JSON nor the comment.
    expect(JSON.stringify(doc)).not.toContain(token);
    expect(gate.stdout).not.toContain(token);
    const md = await comment();
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toContain("<!-- pulumi-irv:access-review -->");
    expect(md.stdout).toContain("No access change.");
    expect(md.stdout).not.toContain(token);
    // The pack reads the stack's own state as the before: admin's owner at the root is no change.
    expect(await policyGate()).toEqual({ exitCode: 0, messages: [], advisory: [] });
  });

  it("owner at the root: one row, 'all of owner', approved for the gated preview by one entry naming the grant", async () => {
    const spec = edit((s) =>
      s.bindings.push({ key: "ci-owner-root", group: "org", identity: "ci", role: "owner" }),
    );
    const { diff, gate } = await review(spec);
    const owner = roles.find((r) => r.name === "owner")!;
    expect(diff.map((r) => [r.state, r.identity.name, r.subtree.path, r.grant.binding, r.allOf])).toEqual([
      ["gained", "ci", "/", "ci-owner-root", { role: "owner", count: owner.capabilities.length }],
    ]);
    expect(gate.exitCode).toBe(1);
    const blocked = await policyGate();
    expect(blocked.messages).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ci gained all of owner \\(${owner.capabilities.length}\\) on / through ci-owner-root → owner \\[.*root.*\\]: not approved \\(row ${diff[0]!.id}\\)\\. Narrow the change, or approve it in ${stack.projectDir}/access-approvals\\.yaml \\(not there yet\\): - \\{ identity: "ci", group: "/", role: "owner"`,
          "m",
        ),
      ),
    ]);
    const approved = await policyGate(["identity: ci\n    group: /\n    role: owner"]);
    expect(approved).toEqual({ exitCode: 0, messages: [], advisory: [] });
    // The CLI reads the same file by default: the gated comment passes (it blocked above, as JSON).
    writeFileSync(
      path.join(stack.projectDir, "access-approvals.yaml"),
      "approvals:\n  - identity: ci\n    group: /\n    role: owner\n    approvedBy: e2e\n    until: 2999-12-31\n",
    );
    try {
      const commented = await comment();
      expect(commented.exitCode).toBe(0);
      const md = commented.stdout;
      expect(md).toContain(`| all of \`owner\` (${owner.capabilities.length}) |`);
      expect(md).toContain(diff[0]!.id);
      // The picture: one mermaid block that mermaid parses, naming the changed group and identity.
      const [block] = mermaidBlocks(md);
      expect((await parseMermaid(block ?? "")).diagramType).toMatch(/^flowchart/);
      expect(block).toContain('"/ (root)"');
      expect(block).toMatch(/-->\|"\+ owner: all of owner ⚠️ [^"]*root"\| i0/);
    } finally {
      rmSync(path.join(stack.projectDir, "access-approvals.yaml"));
    }
  });

  it("the pack with no config reads the roles with the stack's own credentials: a harmless new binding passes, owner at the root is approved by role name", async () => {
    // editor is bound nowhere in the state: without the roles, its uid could grant anything. Read
    // from the service, it is harmless on /shared, so owner at the root is the one message.
    await setSpec(
      edit((s) => {
        s.bindings.push({ key: "ci-editor-shared", group: "shared", identity: "ci", role: "editor" });
        s.bindings.push({ key: "ci-owner-root", group: "org", identity: "ci", role: "owner" });
      }),
    );
    const blocked = await policyGate([], {}, true);
    expect(blocked.exitCode).not.toBe(0);
    expect(blocked.messages).toEqual([
      expect.stringMatching(/^ci gained all of owner \(\d+\) on \/ through ci-owner-root → owner /m),
    ]);
    const approved = await policyGate(["identity: ci\n    group: /\n    role: owner"], {}, true);
    expect(approved).toEqual({ exitCode: 0, messages: [], advisory: [] });
  });

  it("binding editor at the root: ci gains at / (risky: root); blocked until approved", async () => {
    const spec = edit((s) =>
      s.bindings.push({ key: "ci-editor-root", group: "org", identity: "ci", role: "editor" }),
    );
    const { diff, gate } = await review(spec);
    expect(diff.map((r) => [r.state, r.identity.name, r.subtree.path])).toEqual([["gained", "ci", "/"]]);
    expect(diff[0]!.risks).toContain("root");
    expect(diff[0]!.grant).toMatchObject({
      binding: "ci-editor-root",
      role: "editor",
      group: "/",
      roleEdited: false,
    });
    // ci held nothing at the root: it gains all of editor's capabilities there (read from the API).
    const editor = roles.find((r) => r.name === "editor")!;
    expect(diff[0]!.capabilities).toEqual([...editor.capabilities].sort());
    expect(gate.exitCode).toBe(1);
    expect(gate.stderr).toMatch(
      /not approved: ci gained all of editor \(\d+\) on \/ through ci-editor-root → editor \[.*root.*\] \(row ag-/,
    );
  });

  // Three risky changes of three identities in one edit, which do not touch each other's access:
  // each is its own row (or the lock-out), and one approval entry naming them all lets it through.
  it("a custom role gaining role_bindings.create, a new identity with its binding (unknown at preview), and the last owner binding removed: a row each and a lock-out; blocked until approved", async () => {
    const spec = edit((s) => {
      s.roles[0]!.capabilities = ["groups.list", "role_bindings.create"];
      s.identities.push({
        key: "deploy",
        group: "platform",
        subject: "repo:acme/deploy:ref:refs/heads/main",
      });
      s.bindings.push({ key: "deploy-viewer", group: "payments", identity: "deploy", role: "viewer" });
      s.bindings = s.bindings.filter((b) => b.key !== "admin-owner");
    });
    const { doc, diff, gate } = await review(spec);
    const row = (name: string) => diff.find((r) => r.identity.name === name)!;
    expect(diff.map((r) => [r.state, r.identity.name, r.subtree.path]).sort()).toEqual([
      ["gained", "ci", "/platform/payments"],
      ["gained", "deploy", "/platform/payments"],
      ["lost", "admin", "/"],
    ]);
    // The custom role: its holder gains the capability, and the row names the edited role.
    expect(row("ci").capabilities).toEqual(["role_bindings.create"]);
    expect(row("ci").risks).toEqual(["escalation"]);
    expect(row("ci").grant).toMatchObject({
      binding: "ci-deployer",
      role: "deployer",
      group: "/platform/payments",
      roleEdited: true,
    });
    // The new identity and its binding, unknown at preview, are resolved by dependency.
    expect(row("deploy").identity.isNew).toBe(true);
    expect(row("deploy").identity.uid).toBeUndefined();
    expect(row("deploy").risks).toEqual(["new-identity"]);
    expect(row("deploy").identity.matcher).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/deploy:ref:refs/heads/main",
    });
    // Removing the last owner binding is a lock-out; the admin's loss is a row.
    expect(doc.stacks[0]!.lockOut?.removed).toEqual(["admin-owner"]);
    expect(gate.exitCode).toBe(1);
    expect((await comment()).stdout).toContain("**Lock-out**");
    const blocked = await policyGate();
    expect(blocked.exitCode).not.toBe(0);
    const messages = blocked.messages.join("\n");
    expect(messages).toMatch(/^lock-out: no owner-equivalent binding left at the root/m);
    expect(messages).toMatch(
      /^ci gained .* on \/platform\/payments through ci-deployer → deployer .*escalation/m,
    );
    expect(messages).toMatch(
      /^deploy gained .* on \/platform\/payments through deploy-viewer → viewer .*new-identity/m,
    );
    expect((await policyGate(ids(doc))).exitCode).toBe(0);
  });

  it("a subjectPattern broadened to repo:acme/.*: the identity's access is re-granted to a broad matcher", async () => {
    const spec = edit((s) => {
      s.identities[0] = { key: "ci", group: "platform", subjectPattern: "repo:acme/.*" };
    });
    const { diff, gate } = await review(spec);
    expect(diff.map((r) => [r.state, r.identity.name, r.subtree.path, r.risks])).toEqual([
      ["gained", "ci", "/platform", ["broad-matcher"]],
    ]);
    expect(diff[0]!.matcherChanged?.to).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      subjectPattern: "repo:acme/.*",
    });
    expect(gate.exitCode).toBe(1);
    // identity-match-too-broad (mandatory) also refuses this pattern, and stops the preview before
    // any stack check: advisory here, so the exit code is access-broadening's verdict.
    const broad = { "identity-match-too-broad": { enforcementLevel: "advisory" } };
    const blocked = await policyGate([], broad);
    expect(blocked.exitCode).not.toBe(0);
    expect(blocked.messages.join("\n")).toMatch(
      /ci gained .* on \/platform through ci-viewer → viewer \[broad-matcher\]/,
    );
  });

  it("a group moved under another parent: the new ancestors' holders gain it, the old ones' lose it", async () => {
    const spec = edit((s) => {
      s.groups[2] = { key: "payments", parent: "shared" };
    });
    const { diff, gate } = await review(spec);
    expect(diff.map((r) => [r.state, r.identity.name, r.subtree.path])).toEqual([
      ["gained", "auditor", "/shared/payments"],
      ["lost", "ci", "/platform/payments"],
    ]);
    // Viewer's reads, nothing risky: the gate lets it through.
    expect(diff[0]!.risks).toEqual([]);
    expect(gate.exitCode).toBe(0);
  });

  it("--live sees a binding made by hand through the API, and a new stack binding duplicating it is no gain", async () => {
    const org = irv.emulator.orgUid;
    const platform = (await irv.admin.groups.collect({ childrenOf: org, name: "platform" }))[0]!;
    const payments = (await irv.admin.groups.collect({ childrenOf: platform.uid, name: "payments" }))[0]!;
    const shared = (await irv.admin.groups.collect({ childrenOf: org, name: "shared" }))[0]!;
    const ci = (await irv.admin.identities.collect({ childrenOf: platform.uid, name: "ci" }))[0]!;
    const editor = (await irv.admin.roles.collect({ name: "editor" }))[0]!;
    const byHand = await irv.admin.roleBindings.create(payments.uid, {
      identityUid: ci.uid,
      roleUid: editor.uid,
    });
    try {
      const spec = edit((s) =>
        s.bindings.push({ key: "ci-editor", group: "payments", identity: "ci", role: "editor" }),
      );
      // Without --live the review cannot know, and the stack's binding would look like a gain (the
      // gate's test below shows that contrast).
      const { doc, diff, gate } = await review(spec, ["--live"]);
      expect(diff).toEqual([]);
      expect(doc.summary).toBe("No access change.");
      const live = doc.stacks[0]!.live!;
      expect(live.outside).toEqual([{ uid: byHand.uid, identity: "ci", role: "editor", group: "payments" }]);
      // The stack's topmost groups (platform, shared) are listed whole, the root above them one level.
      expect(live.subtrees).toEqual([platform.uid, shared.uid].sort().concat(org));
      // Three lists of bindings, and the organization's external group role mappings (issue 45).
      expect(live.requests).toBe(4);
      expect(gate.exitCode).toBe(0);
      const md = (await comment(["--live"])).stdout;
      expect(md).toContain("**Access from outside the stack** (read live: 1 bindings");
      expect(md).toContain(`\`ci\` → \`editor\` on \`payments\` (\`${byHand.uid}\`)`);
    } finally {
      await irv.admin.roleBindings.delete(byHand.uid);
    }
  });

  it("the gate with live: true judges as the --live comment: a stack binding duplicating a hand-made owner binding is no gain", async () => {
    const org = irv.emulator.orgUid;
    const shared = (await irv.admin.groups.collect({ childrenOf: org, name: "shared" }))[0]!;
    const auditor = (await irv.admin.identities.collect({ childrenOf: shared.uid, name: "auditor" }))[0]!;
    const owner = (await irv.admin.roles.collect({ name: "owner" }))[0]!;
    const byHand = await irv.admin.roleBindings.create(shared.uid, {
      identityUid: auditor.uid,
      roleUid: owner.uid,
    });
    try {
      await setSpec(
        edit((s) =>
          s.bindings.push({ key: "auditor-owner", group: "shared", identity: "auditor", role: "owner" }),
        ),
      );
      // Without live the gate cannot know: owner on /shared looks gained.
      expect((await policyGate()).messages).toEqual([
        expect.stringMatching(
          /^auditor gained .* on \/shared through auditor-owner → owner \[owner-equivalent/m,
        ),
      ]);
      const live = { "access-broadening": { live: true } };
      expect(await policyGate([], live)).toEqual({ exitCode: 0, messages: [], advisory: [] });
    } finally {
      await irv.admin.roleBindings.delete(byHand.uid);
    }
  });

  it("a program that fails at preview: one line naming the stack and the program's error, exit 1, no report", async () => {
    await stack.setConfig({ spec: "{not json" });
    const args = ["access-review", "--stack", stack.stackName, "--cwd", stack.projectDir];
    const failed = await runOpsCli([...args, "--format", "json"], { env: stack.env });
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toBe("");
    expect(failed.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pulumi-irv access-review: pulumi preview of stack ${stack.stackName} failed, so there is no planned state to review: .*irv-org:spec. value .\\{not json. is not a valid JSON object$`,
        ),
      ),
    ]);
  });

  it("reviewing a named stack leaves the project's selected stack as it was (regression: it ran `pulumi stack select`)", async () => {
    const cli = (args: string[]) =>
      runPulumi(pulumiBinDir(), args, { cwd: stack.projectDir, env: stack.env as Record<string, string> });
    await setSpec(BASE);
    await cli(["stack", "init", "other", "--non-interactive"]);
    try {
      const args = [
        "access-review",
        "--stack",
        stack.stackName,
        "--cwd",
        stack.projectDir,
        "--format",
        "json",
      ];
      expect((await runOpsCli(args, { env: stack.env })).exitCode).toBe(0);
      expect((await cli(["stack", "--show-name", "--non-interactive"])).stdout.trim()).toBe("other");
    } finally {
      await cli(["stack", "select", stack.stackName, "--non-interactive"]);
      await cli(["stack", "rm", "other", "--yes", "--non-interactive"]);
    }
  });
});
