// The consumer test: the three packages as a user gets them. `npm pack` makes the tarballs a publish
// would upload; each is installed into a fresh project outside the repository, with @pulumi/pulumi at
// the low end of pulumi-irv's peer range and at the newest; the project is the `pulumi new
// typescript` one (its tsconfig untouched, TypeScript 5) running the README's program
// (examples/readme/index.ts, every snippet of the README), plus a plain JavaScript program, run with
// the real engine against `irv-emulator` started from the installed bin, and the installed policy
// pack checks a preview.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineEvent } from "@pulumi/pulumi/automation/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_IN_ROLE_NAMES, IrvClient } from "../../sdk/index.js";
import { pulumiBinDir } from "../e2e/harness/index.js";
import type { InstalledEmulator, PackedPackage } from "./support/index.js";
import {
  fallbackCompilerReport,
  installedCopies,
  makeProject,
  npm,
  packPackages,
  projectStack,
  startInstalledEmulator,
  treeBytes,
} from "./support/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = (name: string) => path.join(root, "test", "consumer", "fixtures", name);

/** The low end of pulumi-irv's `@pulumi/pulumi` peer range (dynamic-provider `configure`) and the newest. */
// What getRoles({ orderBy: "name" }) lists in a fresh organization: the built-in roles.
const BUILT_IN_ROLES_BY_NAME = [...BUILT_IN_ROLE_NAMES].sort();
const PEER_LOW = "3.139.0";
const PEER_HIGH = "3.270.0";
const peerRange = (
  JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies["@pulumi/pulumi"];

/** What `tsc --noEmit` prints in a project (empty when it exits 0). */
function typeErrors(dir: string, tsc: string, args: string[]): string {
  try {
    execFileSync(tsc, ["--noEmit", ...args], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (err) {
    return (err as { stdout?: string }).stdout || String(err);
  }
}

let work: string;
let packs: Map<string, PackedPackage>;
const packed = (name: string): PackedPackage => {
  const p = packs.get(name);
  if (p === undefined) throw new Error(`npm pack made no ${name}`);
  return p;
};

beforeAll(() => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), "irv-consumer-")));
  if (!path.relative(root, work).startsWith("..")) throw new Error(`${work} is inside the repository`);
  packs = packPackages(root, work);
});

afterAll(() => {
  if (work !== undefined && process.env.IRV_E2E_KEEP !== "1") rmSync(work, { recursive: true, force: true });
});

describe("the packed tarballs", () => {
  it("are pulumi-irv, pulumi-irv-emulator and pulumi-irv-policy, each with package.json, README and LICENSE", () => {
    expect([...packs.keys()].sort()).toEqual(["pulumi-irv", "pulumi-irv-emulator", "pulumi-irv-policy"]);
    for (const p of packs.values()) {
      expect(p.files, p.name).toEqual(expect.arrayContaining(["package.json", "README.md", "LICENSE"]));
      console.log(`${p.name}: ${p.size} bytes packed, ${p.unpackedSize} unpacked, ${p.files.length} files`);
    }
  });

  it("ship no scripts/, test/ or bench/, no TypeScript sources other than .d.ts and no source maps", () => {
    for (const p of packs.values()) {
      const offending = p.files.filter(
        (f) =>
          /(^|\/)(scripts|test|bench)\//.test(f) ||
          (f.endsWith(".ts") && !f.endsWith(".d.ts")) ||
          f.endsWith(".map"),
      );
      expect(offending, p.name).toEqual([]);
    }
  });

  it("split the code: the provider, sdk and review in pulumi-irv, the emulator and the pack in their own packages", () => {
    const irv = packed("pulumi-irv").files;
    expect(irv).toEqual(expect.arrayContaining(["dist/provider/index.js", "dist/provider/index.d.ts"]));
    expect(irv).toEqual(expect.arrayContaining(["dist/sdk/index.js", "dist/sdk/index.d.ts"]));
    expect(irv).toEqual(expect.arrayContaining(["dist/review/index.js", "dist/review/index.d.ts"]));
    expect(irv.filter((f) => /^(dist\/)?(emulator|policy)\//.test(f))).toEqual([]);
    expect(packed("pulumi-irv-emulator").files).toEqual(
      expect.arrayContaining(["dist/cli.js", "dist/index.d.ts"]),
    );
    expect(packed("pulumi-irv-policy").files).toEqual(
      expect.arrayContaining(["PulumiPolicy.yaml", "dist/index.js"]),
    );
  });
});

/** A user's project with the packed packages installed, and the emulator from its bin. */
interface Installed {
  dir: string;
  providerOnlyBytes: number;
  providerOnlyPackages: string[];
  emulator: InstalledEmulator;
  admin: IrvClient;
}

// The pack needs @pulumi/policy 1.21, which needs @pulumi/pulumi >= 3.204: installed with the newest only.
// The plain JavaScript program loads pulumi-irv as any CommonJS program does, whatever the version:
// run with the newest only, since each engine run costs seconds of CPU.
const INSTALLS = [
  { version: PEER_LOW, policy: false, javascript: false },
  { version: PEER_HIGH, policy: true, javascript: true },
];

describe.each(INSTALLS)(
  "installed into a fresh project with @pulumi/pulumi $version",
  ({ version, policy, javascript }) => {
    let installed: Installed | undefined;
    const project = (): Installed => {
      if (installed === undefined) throw new Error("the project was not installed");
      return installed;
    };
    const stackOf = (projectDir: string, name: string) =>
      projectStack({
        projectDir,
        workDir: path.join(work, `${name}-${version}`),
        binDir: pulumiBinDir(),
        config: {
          "irv:baseUrl": project().emulator.baseUrl,
          "irv:token": project().emulator.adminToken,
          orgUid: project().emulator.orgUid,
        },
        secret: ["irv:token"],
      });

    beforeAll(async () => {
      const dir = path.join(work, `project-${version}`);
      makeProject(fixture("ts-project"), dir, {
        dependencies: { "@pulumi/pulumi": version, "pulumi-irv": `file:${packed("pulumi-irv").tarball}` },
        devDependencies: {
          "@types/node": "^22",
          typescript: "^5",
          "pulumi-irv-emulator": `file:${packed("pulumi-irv-emulator").tarball}`,
          ...(policy ? { "pulumi-irv-policy": `file:${packed("pulumi-irv-policy").tarball}` } : {}),
        },
      });
      // First what a provider user installs (production dependencies only), measured; then the rest.
      npm(dir, ["install", "--omit=dev"]);
      const providerOnlyBytes = treeBytes(path.join(dir, "node_modules"));
      const providerOnlyPackages = npm(dir, ["ls", "--all", "--parseable", "--omit=dev"])
        .split("\n")
        .filter((l) => l.includes("node_modules/"))
        .map((l) => l.slice(l.lastIndexOf("node_modules/") + "node_modules/".length));
      const ours = ["pulumi-irv", "undici", "zod", "jose"]
        .map((name) => treeBytes(path.join(dir, "node_modules", name)))
        .reduce((a, b) => a + b, 0);
      console.log(
        `@pulumi/pulumi ${version}: provider-only node_modules ${(providerOnlyBytes / 1e6).toFixed(1)} MB, ` +
          `${providerOnlyPackages.length} packages; pulumi-irv with undici, zod and jose ${(ours / 1e6).toFixed(1)} MB`,
      );
      npm(dir, ["install"]);
      // The README's program, every snippet of it, as the project's index.ts.
      copyFileSync(path.join(root, "examples", "readme", "index.ts"), path.join(dir, "index.ts"));
      makeProject(fixture("js-program"), path.join(dir, "js-program"), {
        dependencies: {},
        devDependencies: {},
      });
      const emulator = await startInstalledEmulator(dir);
      installed = {
        dir,
        providerOnlyBytes,
        providerOnlyPackages,
        emulator,
        admin: new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken }),
      };
    }, 600_000);

    afterAll(async () => {
      await installed?.admin.close();
      await installed?.emulator.stop();
    });

    it(`satisfies pulumi-irv's peer range for @pulumi/pulumi, with one copy of it in the tree`, () => {
      expect(peerRange).toBe("^3.139.0");
      expect(installedCopies(project().dir, "@pulumi/pulumi")).toEqual([
        path.join(project().dir, "node_modules", "@pulumi", "pulumi"),
      ]);
      const pkg = JSON.parse(
        readFileSync(path.join(project().dir, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
      ) as { version: string };
      expect(pkg.version).toBe(version);
    });

    it("installs no fastify, no @pulumi/policy and no pg (an optional peer, issue 34) for a provider-only user", () => {
      const names = project().providerOnlyPackages;
      expect(names).toContain("pulumi-irv");
      expect(
        names.filter(
          (n) => n === "fastify" || n.startsWith("@fastify/") || n === "@pulumi/policy" || /^pg(-|$)/.test(n),
        ),
      ).toEqual([]);
      expect(project().providerOnlyBytes).toBeGreaterThan(0);
    });

    it("loads the provider runtime by the names stored in state: internal/runtime, and runtime from 0.1.0", () => {
      const probe =
        'const a = require("pulumi-irv/internal/runtime"); const b = require("pulumi-irv/runtime");' +
        "process.stdout.write(String(a === b && typeof a.install));";
      expect(execFileSync(process.execPath, ["-e", probe], { cwd: project().dir, encoding: "utf8" })).toBe(
        "function",
      );
    });

    it("type-checks the README's program with TypeScript 5 and the unmodified `pulumi new typescript` tsconfig", () => {
      const tsc = path.join(project().dir, "node_modules", ".bin", "tsc");
      expect(execFileSync(tsc, ["--version"], { encoding: "utf8" })).toMatch(/^Version 5\./);
      expect(typeErrors(project().dir, tsc, [])).toBe("");
    });

    it("declares nothing the TypeScript 3.8 that @pulumi/pulumi falls back to cannot read", () => {
      const report = fallbackCompilerReport(project().dir, "pulumi-irv");
      expect(report.version).toBe("3.8.3");
      expect(report.packageFiles).toEqual(
        expect.arrayContaining([expect.stringMatching(/pulumi-irv\/dist\/provider\/iam\/group\.d\.ts$/)]),
      );
      expect(report.errors).toEqual([]);
    });

    it("resolves the README's `pulumi-irv/sdk` import under `moduleResolution: node`", () => {
      // zod's own declarations need esModuleInterop or skipLibCheck (colinhacks/zod#5160); the sdk entry
      // exposes zod on purpose, so this checks resolution and our declarations, not zod's.
      const tsc = path.join(project().dir, "node_modules", ".bin", "tsc");
      const flags = ["--strict", "--target", "es2020", "--module", "commonjs", "--moduleResolution", "node"];
      expect(typeErrors(project().dir, tsc, [...flags, "--skipLibCheck", "sdk-import.ts"])).toBe("");
    });

    it("previews, creates, refreshes and destroys the README's program against the installed irv-emulator", async () => {
      const { stack } = await stackOf(project().dir, "ts");
      const { admin, emulator } = project();
      const topGroups = async () =>
        (await admin.groups.collect({ childrenOf: emulator.orgUid })).map((g) => g.name);

      const preview = await stack.preview();
      expect(preview.changeSummary).toEqual({ create: 5 });
      expect(await topGroups()).toEqual([]);

      const up = await stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 5 });
      expect(up.outputs.roles?.value).toEqual(BUILT_IN_ROLES_BY_NAME);
      expect(up.outputs.viewerUid?.value).toMatch(/^[0-9a-f]+$/);
      expect(await topGroups()).toEqual(["platform"]);

      const refresh = await stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: 5 });

      const destroy = await stack.destroy();
      expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
      expect(await topGroups()).toEqual([]);
    });

    if (javascript)
      it('runs a plain JavaScript program that does `require("pulumi-irv")`', async () => {
        const { stack } = await stackOf(path.join(project().dir, "js-program"), "js");
        const up = await stack.up();
        expect(up.summary.resourceChanges).toEqual({ create: 2 });
        expect(up.outputs.groupName?.value).toBe("js-team");
        const groupUid = String(up.outputs.groupUid?.value);
        expect((await project().admin.groups.get(groupUid)).name).toBe("js-team");
        expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 2 });
      });

    if (policy)
      it("blocks a preview through the installed pack (--policy-pack node_modules/pulumi-irv-policy)", async () => {
        const { stack } = await stackOf(project().dir, "policy");
        // The README's team-payments group and payments-ci identity have no description; the pack config turns the (by default
        // disabled) description-required policy on as mandatory.
        const packConfig = path.join(work, `policy-config-${version}.json`);
        writeFileSync(
          packConfig,
          // access-broadening (mandatory by default) would also stop this preview: the README's new
          // identity gains access. Advisory here, so the mandatory ones are description-required's.
          JSON.stringify({
            "description-required": { enforcementLevel: "mandatory" },
            "access-broadening": { enforcementLevel: "advisory" },
          }),
        );
        const events: EngineEvent[] = [];
        await expect(
          stack.preview({
            policyPacks: [path.join(project().dir, "node_modules", "pulumi-irv-policy")],
            policyPackConfigs: [packConfig],
            onEvent: (e) => events.push(e),
          }),
        ).rejects.toThrow();
        // Only the mandatory ones: no-broad-owner-binding also advises on the binding, whose role is
        // unknown at preview.
        const violations = events
          .flatMap((e) => (e.policyEvent?.enforcementLevel === "mandatory" ? [e.policyEvent] : []))
          .map((v) => `${v.enforcementLevel} ${v.policyName} ${v.resourceUrn?.split("::").pop()}`);
        expect(violations.sort()).toEqual([
          "mandatory description-required payments-ci",
          "mandatory description-required team-payments",
        ]);
      });
  },
);
