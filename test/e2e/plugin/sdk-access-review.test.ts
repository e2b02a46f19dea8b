// The access review and the access-broadening gate on Python and Go programs written with the
// generated SDKs, run by their language hosts on the native plugin (irv:iam:* tokens and their input
// names as each SDK sends them): the same CI identity bound at the root as the YAML program of
// yaml-access-review.test.ts, and an identity provider's external group mapped at the root (issue 45:
// a mapping is a grant). The unchanged stack passes the pack given no config (no before file, no
// roles); the risky edit (viewer to owner at the root, for the identity and the mapping alike) is one
// row each in the review, blocked by the pack, and let through by one approval entry per grant in
// the project's access-approvals.yaml.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewJson } from "../../../review/index.js";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir, policyViolations, pulumiBinDir } from "../harness/index.js";
import type { PreparedGoProgram } from "../support/go-program.js";
import { prepareGoProgram } from "../support/go-program.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import { runOpsCli } from "../support/ops-cli.js";
import type { PreparedPythonProgram } from "../support/python-project.js";
import { preparePythonProgram } from "../support/python-project.js";

const root = path.resolve(import.meta.dirname, "../../..");
const PACK = path.join(root, "node_modules", "pulumi-irv-policy");

type Prepared = PreparedPythonProgram | PreparedGoProgram;

// What depends on the language is the state the SDK's program leaves (its tokens and input names),
// which the JSON review and the pack's verdicts read. The comment's rendering and the approvals
// file's entry-by-entry matching do not: they run for the first language only (`whole`), since each
// preview costs seconds of CPU.
const PROGRAMS: { language: string; whole: boolean; prepare: () => Promise<Prepared> }[] = [
  {
    language: "Python",
    whole: true,
    // The copy runs from a temp dir. The policy pack needs no Node.js in it with Pulumi's own language
    // host; the toolchain's stand-in (scripts/pulumi-language-nodejs.mjs, docs/toolchain.md) loads
    // its gRPC stubs from the program directory, so NODE_PATH names the repository's @pulumi/pulumi.
    prepare: async () => {
      const program = await preparePythonProgram(fixtureDir("python-access-program"), pulumiBinDir());
      return { ...program, env: { ...program.env, NODE_PATH: path.join(root, "node_modules") } };
    },
  },
  {
    language: "Go",
    whole: false,
    prepare: () => prepareGoProgram(fixtureDir("go-access-program"), pulumiBinDir()),
  },
];

for (const { language, whole, prepare } of PROGRAMS) {
  describe(`access review of a ${language} program on pulumi-resource-irv`, () => {
    let irv: TestEmulator;
    let stack: TestStack;
    let program: Prepared;
    let roles: { name: string; capabilities: string[] }[];

    beforeAll(async () => {
      program = await prepare();
      irv = await startTestEmulator();
      stack = await createStack({ program: program.program, config: irv.config, env: program.env });
      await program.beforeUp(stack);
      await stack.up();
      roles = await irv.admin.roles.collect();
    });

    afterAll(async () => {
      await stack?.dispose();
      await irv?.close();
      program?.dispose();
    });

    // The pack as a team turns it on, with no config: it reads the state before and the roles
    // itself, and the approvals from access-approvals.yaml in the project directory when there.
    const gate = async () => {
      const result = await stack.preview({
        policyPacks: [PACK],
        allowFailure: true,
      });
      const violations = policyViolations(result.events);
      // A preview that fails with no violation failed for another reason: show the engine's words.
      if (result.exitCode !== 0 && violations.length === 0)
        throw new Error(`pulumi preview failed with no policy violation:\n${result.stderr}`);
      return {
        exitCode: result.exitCode,
        // One violation per resource, in an order of the engine's: sorted.
        messages: violations.map((v) => `${v.policyName}: ${v.message}`).sort(),
      };
    };
    const review = (format: "json" | "markdown") =>
      runOpsCli(
        ["access-review", "--stack", stack.stackName, "--cwd", stack.projectDir, "--format", format],
        { env: stack.env },
      );

    it("the unchanged stack (viewer at the root, for the identity and the mapping) passes the pack with no config: no before file, no roles", async () => {
      expect(await gate()).toEqual({ exitCode: 0, messages: [] });
    });

    it("the CI identity and the mapped external group made owner at the root: one row each gaining the rest of owner, risky, in the JSON and the comment", async () => {
      await stack.setConfig({ ciRole: "owner", adminsRole: "owner" });
      const json = await review("json");
      expect(json.stderr).toBe("");
      const diff = (JSON.parse(json.stdout) as ReviewJson).stacks[0]!.diff;
      const risky = expect.arrayContaining(["owner-equivalent", "root"]);
      expect(diff).toMatchObject([
        {
          state: "gained",
          identity: { name: "ci" },
          subtree: { path: "/" },
          grant: { binding: "ciAtRoot", role: "owner", group: "/" },
          risks: risky,
        },
        {
          state: "gained",
          identity: { name: "platform-admins (external group of corp-sso)" },
          subtree: { path: "/" },
          grant: { binding: "adminsAtRoot", role: "owner", group: "/" },
          risks: risky,
        },
      ]);
      // Owner holds every capability of viewer: the edit gains the rest, which is no known role's set.
      const capabilitiesOf = (name: string) => roles.find((r) => r.name === name)?.capabilities ?? [];
      const rest = capabilitiesOf("owner").filter((c) => !capabilitiesOf("viewer").includes(c));
      for (const row of diff) {
        expect([...row.capabilities].sort()).toEqual(rest.sort());
        expect(row.allOf).toBeUndefined();
      }
      if (!whole) return;
      // The comment a reviewer reads: those two rows, their grants and their risks.
      const markdown = await review("markdown");
      const rows = markdown.stdout.split("\n").filter((l) => l.startsWith("| ➕"));
      expect(rows).toEqual([
        expect.stringMatching(
          new RegExp(
            `^\\| ➕ gained \\| \`ci\` .*\\| \`/\` \\| \`ciAtRoot\` → \`owner\` on \`/\` \\| .*\\| ⚠️ .*owner-equivalent.* \\| \`${diff[0]!.id}\` \\|$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `^\\| ➕ gained \\| \`platform-admins \\(external group of corp-sso\\)\` .*\\| \`adminsAtRoot\` → \`owner\` on \`/\` \\| .*\\| ⚠️ .*owner-equivalent.* \\| \`${diff[1]!.id}\` \\|$`,
          ),
        ),
      ]);
    });

    it("the pack blocks the edit, naming the project's approvals file; it stops the mapping until its own entry is there too", async () => {
      const approvals = path.join(stack.projectDir, "access-approvals.yaml");
      const blocked = await gate();
      expect(blocked.exitCode).not.toBe(0);
      // One violation per resource: the binding's and the mapping's, each naming the file.
      expect(blocked.messages).toEqual([
        expect.stringMatching(
          /^access-broadening: [\s\S]*\nci gained .* on \/ through ciAtRoot → owner \[owner-equivalent[^\]]*\]: not approved/,
        ),
        expect.stringMatching(
          /^access-broadening: [\s\S]*\nplatform-admins \(external group of corp-sso\) gained .* on \/ through adminsAtRoot → owner \[owner-equivalent[^\]]*\]: not approved/,
        ),
      ]);
      for (const message of blocked.messages)
        expect(message).toContain(`approve it in ${approvals} (not there yet)`);
      const approval = (identity: string) =>
        `  - identity: ${identity}\n    group: /\n    role: owner\n    approvedBy: e2e\n    until: 2999-12-31\n`;
      if (whole) {
        // The identity's grant approved, the mapping's not yet: the pack still stops the mapping alone.
        writeFileSync(approvals, `approvals:\n${approval("ci")}`);
        const mappingOnly = await gate();
        expect(mappingOnly.exitCode).not.toBe(0);
        expect(mappingOnly.messages).toEqual([
          expect.stringMatching(/\nplatform-admins \(external group of corp-sso\) gained .*: not approved/),
        ]);
      }
      writeFileSync(
        approvals,
        `approvals:\n${approval("ci")}${approval('"platform-admins (external group of corp-sso)"')}`,
      );
      expect(await gate()).toEqual({ exitCode: 0, messages: [] });
    });
  });
}
