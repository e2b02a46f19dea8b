// `pulumi-irv import-org` round trip: an organization made through the API (not Pulumi), with names
// that need escaping (spaces, dots, leading digits, the same name in several groups), becomes a
// generated program whose first `pulumi up` adopts everything without an API write, whose preview
// then shows no change, and where one edit is one PATCH.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack } from "../harness/index.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { runOpsCli } from "../support/ops-cli.js";

// Inside the repository, so the generated program resolves `pulumi-irv` and `typescript` from it.
const GENERATED = fileURLToPath(new URL("../.generated/", import.meta.url));
const TOP = ["payments", "2fa admins", "team.search", "ops", "9lives", "data platform", "web", "mobile"];
const SUB = ["ci", "prod", "staging"];

const writes = (requests: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(requests).filter(([route, n]) => /^(POST|PATCH|DELETE) /.test(route) && n > 0),
  );

describe("pulumi-irv import-org", () => {
  let irv: TestEmulator;
  let stack: TestStack | undefined;
  let workDir: string;
  let objects = 0;
  const env = () => ({
    ...process.env,
    IRV_BASE_URL: irv.emulator.baseUrl,
    IRV_TOKEN: irv.emulator.adminToken,
  });
  const importOrg = (out: string, root = irv.emulator.orgUid) =>
    runOpsCli(["import-org", "--root", root, "--out", out], { env: env() });

  beforeAll(async () => {
    irv = await startTestEmulator();
    mkdirSync(GENERATED, { recursive: true });
    workDir = mkdtempSync(path.join(GENERATED, "import-org-"));
    const admin = irv.admin;
    const org = irv.emulator.orgUid;
    const [viewer, editor] = (await Promise.all(
      ["viewer", "editor"].map(async (name) => (await admin.roles.list({ name })).items[0]?.uid as string),
    )) as [string, string];
    // 8 top groups × 3 sub-groups (the same 3 names in each), 3 identities per sub-group (the
    // same names again), each bound to viewer and the first also to editor: 32 + 72 + 96 = 200.
    await Promise.all(
      TOP.map(async (top, i) => {
        const g = await admin.groups.create(org, {
          name: top,
          ...(i % 2 === 0 ? { description: `the ${top} team` } : {}),
        });
        await Promise.all(
          SUB.map(async (sub) => {
            const s = await admin.groups.create(g.uid, { name: sub });
            await Promise.all(
              ["deploy bot", "ci.runner", "1st-responder"].map(async (name, k) => {
                const id = await admin.identities.create(s.uid, {
                  name,
                  ...(k === 0 ? { description: "pushes releases" } : {}),
                  claimMatch: {
                    issuer: "https://token.actions.githubusercontent.com",
                    subject: `repo:acme/${top}:${sub}:${k}`,
                  },
                });
                await admin.roleBindings.create(s.uid, { identityUid: id.uid, roleUid: viewer });
                if (k === 0) await admin.roleBindings.create(s.uid, { identityUid: id.uid, roleUid: editor });
              }),
            );
          }),
        );
      }),
    );
    objects = TOP.length * (1 + SUB.length * (1 + 3 + 4));
  });

  afterAll(async () => {
    await stack?.dispose();
    await irv?.close();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it("writes the project, with progress on stderr, byte-identical when run again", async () => {
    const first = await importOrg(path.join(workDir, "a"));
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toMatch(/reading groups below/);
    expect(first.stderr).toContain(`${objects} resources`);
    const second = await importOrg(path.join(workDir, "b"));
    expect(second.exitCode).toBe(0);
    const files = readdirSync(path.join(workDir, "a")).sort();
    expect(files).toEqual(["Pulumi.yaml", "README.md", "index.ts", "package.json", "tsconfig.json"]);
    for (const f of files)
      expect(readFileSync(path.join(workDir, "b", f), "utf8"), f).toBe(
        readFileSync(path.join(workDir, "a", f), "utf8"),
      );
    const index = readFileSync(path.join(workDir, "a", "index.ts"), "utf8");
    expect(index.match(/\{ import: "/g)?.length).toBe(objects);
    expect(index).toContain('irv.iam.getRoleOutput({ name: "viewer" })');
  });

  it("adopts everything on the first up with no API write, then previews no change", async () => {
    stack = await createStack({ program: path.join(workDir, "a"), config: irv.config });
    await irv.resetStats();
    await stack.up();
    expect(writes((await irv.stats()).requests)).toEqual({});
    expect((await stack.resources()).length).toBe(objects);
    await stack.preview({ args: ["--expect-no-changes"] });
  });

  it("turns one edit of the generated code into one PATCH", async () => {
    const file = path.join(workDir, "a", "index.ts");
    const index = readFileSync(file, "utf8");
    expect(index).toContain('description: "the payments team"');
    writeFileSync(file, index.replace('description: "the payments team"', 'description: "payments, edited"'));
    await irv.resetStats();
    await stack?.up();
    expect(writes((await irv.stats()).requests)).toEqual({ "PATCH /iam/v2beta1/groups/*": 1 });
    const payments = (await irv.admin.groups.list({ childrenOf: irv.emulator.orgUid, name: "payments" }))
      .items[0];
    expect(payments?.description).toBe("payments, edited");
  });

  it("fails with a message naming the root when it does not exist", async () => {
    const missing = `${irv.emulator.orgUid}/0123456789abcdef`;
    const r = await importOrg(path.join(workDir, "missing"), missing);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`the root group ${missing} does not exist`);
  });
});
