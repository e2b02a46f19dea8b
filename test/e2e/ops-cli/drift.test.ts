// `pulumi-irv drift` on the real engine against the emulator: one stack brought up once (the only
// engine operations are its up and its destroy), then changed by hand through the API in two steps:
// a description edited (drift with no access change), then an identity deleted, an owner binding
// and a group made outside the stack. Each step is read in every format and with each --fail-on,
// by lists only, and the stack's exported state is byte-identical after all of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriftJson } from "../../../provider/cli/drift-render.js";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir, pulumiBinDir, runPulumi } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { runOpsCli } from "../support/ops-cli.js";

const SPEC = {
  groups: [
    { key: "platform", parent: "org", description: "Platform team" },
    { key: "payments", parent: "platform" },
  ],
  identities: [
    { key: "ci", group: "platform", subject: "repo:acme/app:ref:refs/heads/main" },
    { key: "spare", group: "payments", subject: "repo:acme/spare:ref:refs/heads/main" },
  ],
  bindings: [{ key: "ci-viewer", group: "platform", identity: "ci", role: "viewer" }],
};

describe("pulumi-irv drift", () => {
  let irv: TestEmulator;
  let stack: TestStack;
  let uids: { groups: Record<string, string>; identities: Record<string, string> };
  let exportedBefore: string;

  const exported = async () =>
    (
      await runPulumi(pulumiBinDir(), ["stack", "export", "--stack", stack.stackName], {
        cwd: stack.projectDir,
        env: stack.env as Record<string, string>,
      })
    ).stdout;

  async function drift(...extra: string[]) {
    return runOpsCli(["drift", "--stack", stack.stackName, "--cwd", stack.projectDir, ...extra], {
      env: stack.env,
    });
  }

  beforeAll(async () => {
    irv = await startTestEmulator();
    stack = await createStack({
      program: fixtureDir("org-program"),
      config: { ...irv.config, orgUid: irv.emulator.orgUid, spec: JSON.stringify(SPEC) },
    });
    await stack.up();
    const out = await stack.outputs();
    uids = { groups: out.groupUids as never, identities: out.identityUids as never };
    exportedBefore = await exported();
  });
  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
  });

  it("an unchanged stack: no findings in any format, exit 0 even with --fail-on any", async () => {
    const json = await drift("--format", "json", "--fail-on", "any");
    expect(json.stderr).toBe("");
    expect(json.exitCode).toBe(0);
    const doc = JSON.parse(json.stdout) as DriftJson;
    expect(doc.findings).toEqual([]);
    expect(doc.summary).toMatch(/^No drift in stack /);
    const text = await drift();
    expect([text.exitCode, text.stdout]).toEqual([0, expect.stringMatching(/^No drift in stack /)]);
  });

  it("a description edited by hand: reported field by field in every format; --fail-on risky exits 0, any exits 1", async () => {
    await irv.admin.groups.update(
      uids.groups.platform as string,
      { description: "edited in the console" },
      { updateMask: ["description"] },
    );
    await irv.resetStats();
    const risky = await drift("--format", "json", "--fail-on", "risky");
    expect([risky.exitCode, risky.stderr]).toEqual([0, ""]);
    const doc = JSON.parse(risky.stdout) as DriftJson;
    expect(doc.findings).toEqual([
      expect.objectContaining({
        state: "changed",
        className: "Group",
        name: "platform",
        fields: [{ field: "description", code: "Platform team", live: "edited in the console" }],
        access: [],
        risky: false,
      }),
    ]);
    // Lists only: no read of one object by its uid.
    const stats = await irv.stats();
    const gets = Object.entries(stats.requests).filter(([route, n]) => n > 0 && /^GET .+\/\*$/.test(route));
    expect(gets).toEqual([]);
    expect(doc.read.requests).toBeGreaterThan(0);

    const any = await drift("--fail-on", "any");
    expect(any.exitCode).toBe(1);
    expect(any.stdout).toContain(`description: "Platform team" (code) → "edited in the console" (live)`);
    const md = await drift("--format", "markdown");
    expect(md.exitCode).toBe(0);
    expect(md.stdout).toContain('`description`: `"Platform team"` → `"edited in the console"`');
  });

  it("an identity deleted, an owner binding and a group made by hand: each reported in every format; --fail-on risky exits 1", async () => {
    const platform = uids.groups.platform as string;
    const payments = uids.groups.payments as string;
    await irv.admin.identities.delete(uids.identities.spare as string);
    const owner = (await irv.admin.roles.list({ name: "owner" })).items[0];
    const binding = await irv.admin.roleBindings.create(payments, {
      identityUid: uids.identities.ci as string,
      roleUid: owner?.uid as string,
    });
    const rogue = await irv.admin.groups.create(platform, { name: "rogue" });

    const json = await drift("--format", "json", "--fail-on", "risky");
    expect([json.exitCode, json.stderr]).toEqual([1, ""]);
    const doc = JSON.parse(json.stdout) as DriftJson;
    expect(doc.findings.map((f) => [f.state, f.className, f.name, f.risky])).toEqual([
      ["deleted", "Identity", "spare", false],
      ["changed", "Group", "platform", false],
      ["unmanaged", "Group", "rogue", false],
      ["unmanaged", "RoleBinding", binding.uid, true],
    ]);
    const ownerRows = doc.access.stacks[0]?.diff.filter((r) => doc.findings[3]?.access.includes(r.id)) ?? [];
    expect(ownerRows.length).toBeGreaterThan(0);
    expect(ownerRows.every((r) => r.state === "gained" && r.risks.includes("owner-equivalent"))).toBe(true);

    const text = await drift("--fail-on", "risky");
    expect(text.exitCode).toBe(1);
    const md = await drift("--format", "markdown", "--fail-on", "any");
    expect(md.exitCode).toBe(1);
    for (const out of [text.stdout, md.stdout]) {
      expect(out).toContain("spare");
      expect(out).toContain("rogue");
      expect(out).toContain(binding.uid);
      expect(out).toContain("ci → owner at payments");
      expect(out).toContain("edited in the console");
    }
    expect(md.stdout.split("\n")[0]).toBe("<!-- pulumi-irv:drift -->");
    expect(md.stdout).toContain(`| deleted | Identity \`spare\``);
    expect(rogue.uid.startsWith(`${platform}/`)).toBe(true);
  });

  it("writes no state: the exported state is byte-identical after every run", async () => {
    expect(await exported()).toBe(exportedBefore);
  });

  it("a bad flag or an unknown stack exits 2, naming the cause", async () => {
    const bad = await drift("--fail-on", "sometimes");
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      'pulumi-irv drift: --fail-on must be one of none, any, risky, got "sometimes"\n',
    ]);
    const missing = await runOpsCli(["drift", "--stack", "no-such-stack", "--cwd", stack.projectDir], {
      env: stack.env,
    });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^pulumi-irv drift: .*no-such-stack/);
  });
});
