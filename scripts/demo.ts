#!/usr/bin/env node
// `npm run demo [-- --keep]`: the product end to end on this machine, offline. Finds or builds the
// Pulumi CLI, starts the emulator with a few repos and advisories, runs `pulumi up` of the quickstart
// (the root Pulumi.yaml), prints the outputs and the org tree, shows the policy pack stopping a
// program with mistakes, then destroys everything. `--keep` leaves the emulator and the stack up.
// Run by Node 24 directly (type stripping); it imports the built workspace packages by name.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensurePulumiCli, pulumiEnv } from "./pulumi-cli.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({ options: { keep: { type: "boolean", default: false } } });
const STACK = "demo";
const started = Date.now();
let stepNo = 0;
const STEPS = 8;

function step(title: string): void {
  stepNo++;
  console.log(`\n\x1b[1m[${stepNo}/${STEPS}] ${title}\x1b[0m`);
}

function elapsed(): string {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

if (!existsSync(path.join(root, "emulator", "dist", "index.js"))) {
  console.error("The packages are not built yet: run `npm install` (it builds them) and try again.");
  process.exit(1);
}
// The workspace packages, imported by name as a user's code imports the installed ones.
const { startEmulator } = await import("pulumi-irv-emulator");
const { IrvClient } = await import("pulumi-irv/sdk");

step("Pulumi CLI");
const cli = await ensurePulumiCli({ log: (line) => console.log(`  ${line}`) });
console.log(`  pulumi v${cli.version} (${cli.source}) in ${cli.binDir}`);

const stateDir = path.join(root, ".pulumi-state", "backend");
const homeDir = path.join(root, ".pulumi-state", "home");
mkdirSync(stateDir, { recursive: true });
mkdirSync(homeDir, { recursive: true });
const env = pulumiEnv({ binDir: cli.binDir, stateDir, homeDir, passphrase: "pulumi-irv-demo" });

/** Runs pulumi in `cwd`, streaming its output; resolves with the exit code and what it printed. */
function pulumi(
  args: string[],
  cwd = root,
  opts: { quiet?: boolean } = {},
): Promise<{ code: number; out: string }> {
  return run(path.join(cli.binDir, "pulumi"), [...args, "--non-interactive"], cwd, opts);
}

/** Runs a command in `cwd` with the demo's environment, as {@link pulumi} does. */
function run(
  command: string,
  args: string[],
  cwd = root,
  opts: { quiet?: boolean } = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!opts.quiet) process.stdout.write(d.toString().replace(/^/gm, "  "));
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
  });
}

async function must(args: string[], cwd = root, opts: { quiet?: boolean } = {}): Promise<string> {
  const r = await pulumi(args, cwd, opts);
  if (r.code !== 0) {
    if (opts.quiet) console.error(r.out);
    throw new Error(`pulumi ${args.join(" ")} failed (exit ${r.code})`);
  }
  return r.out;
}

step("Local emulator with seeded repos and advisories");
const emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
const seed = async (what: string, body: object) => {
  const res = await fetch(`${emulator.baseUrl}/_emulator/${what}`, {
    method: "POST",
    headers: { authorization: `Bearer ${emulator.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`seeding ${what}: HTTP ${res.status} ${await res.text()}`);
};
for (const name of ["payments-api", "search-indexer", "web-frontend"])
  await seed("repos", { parentUid: emulator.orgUid, name });
await seed("advisories", {
  parentUid: emulator.orgUid,
  aliases: ["CVE-2026-0142", "GHSA-2026-q3xv-9rmc"],
  artifactName: "payments-api",
  componentName: "imageparse",
  componentType: "go-module",
  severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
});
await seed("advisories", {
  parentUid: emulator.orgUid,
  aliases: ["CVE-2026-0977"],
  artifactName: "search-indexer",
  componentName: "tlslib",
  componentType: "go-module",
  severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:N/I:N/A:H" }],
});
console.log(
  `  API ${emulator.baseUrl} · token exchange ${emulator.authUrl} · organization ${emulator.orgUid}`,
);
console.log("  3 repos and 2 advisories seeded");

const configure = async (cwd: string, extra: Record<string, string> = {}) => {
  await pulumi(["stack", "rm", STACK, "--yes", "--force"], cwd, { quiet: true });
  await must(["stack", "init", STACK], cwd, { quiet: true });
  await must(["config", "set", "irv:baseUrl", emulator.baseUrl], cwd, { quiet: true });
  await must(["config", "set", "irv:authUrl", emulator.authUrl], cwd, { quiet: true });
  await must(["config", "set", "--secret", "irv:token", emulator.adminToken], cwd, { quiet: true });
  await must(["config", "set", "orgUid", emulator.orgUid], cwd, { quiet: true });
  for (const [k, v] of Object.entries(extra)) await must(["config", "set", k, v], cwd, { quiet: true });
};

let failed = false;
try {
  step("pulumi up: the quickstart (examples/quickstart)");
  await configure(root);
  await must(["up", "--yes", "--skip-preview"]);

  step("Stack outputs");
  console.log((await must(["stack", "output", "--json"], root, { quiet: true })).replace(/^/gm, "  "));

  step("The org tree in the emulator");
  const admin = new IrvClient({ baseUrl: emulator.baseUrl, token: emulator.adminToken });
  const groups = await admin.groups.collect({ descendantsOf: emulator.orgUid, orderBy: "uid" });
  const identities = await admin.identities.collect({ descendantsOf: emulator.orgUid });
  const bindings = await admin.roleBindings.collect({ descendantsOf: emulator.orgUid });
  const depth = (uid: string) => uid.split("/").length - 1;
  console.log(`  organization ${emulator.orgUid}`);
  for (const g of groups) {
    console.log(
      `  ${"  ".repeat(depth(g.uid))}└ group ${g.name}${g.description ? ` — ${g.description}` : ""}`,
    );
    for (const i of identities.filter(
      (x) => x.uid.startsWith(`${g.uid}/`) && depth(x.uid) === depth(g.uid) + 1,
    )) {
      const roles = bindings.filter((b) => b.identity.uid === i.uid).map((b) => b.role.name);
      console.log(
        `  ${"  ".repeat(depth(i.uid))}└ identity ${i.name} (${i.claimMatch?.subject ?? i.claimMatch?.subjectPattern ?? ""}) → ${roles.join(", ") || "no role"}`,
      );
    }
  }

  step("A risky edit: payments-ci made owner of the organization, reviewed and gated");
  await must(["config", "set", "rootOwner", "payments"], root, { quiet: true });
  const review = await run(
    process.execPath,
    [path.join(root, "dist", "provider", "cli", "main.js"), "access-review", "--stack", STACK],
    root,
    { quiet: true },
  );
  for (const line of review.out.split("\n").filter((l) => l.trim())) console.log(`  ${line}`);
  const pack = path.join(root, "node_modules", "pulumi-irv-policy");
  // The pack with the roles' capabilities read from the API (what `access-review --gate-inputs`
  // writes in the pipelines) and no state file: it reads the stack's state itself.
  const rolesConfig = path.join(root, ".pulumi-state", "access-policy-config.json");
  const roles = (await admin.roles.collect()).map((r) => ({
    uid: r.uid,
    name: r.name,
    capabilities: r.capabilities,
  }));
  writeFileSync(rolesConfig, JSON.stringify({ "access-broadening": { roles } }));
  const gate = ["preview", "--policy-pack", pack, "--policy-pack-config", rolesConfig];
  const gated = await pulumi(gate, root, { quiet: true });
  const violation = gated.out.split("\n").find((l) => l.includes("not approved (row"));
  console.log(`  ${violation?.trim() ?? "(no access-broadening violation)"}`);
  console.log(`  → pulumi preview exited with ${gated.code}: the pull request would be blocked`);
  const approvals = path.join(root, "access-approvals.yaml");
  writeFileSync(
    approvals,
    "approvals:\n  - identity: payments-ci\n    group: /\n    role: owner\n    approvedBy: demo\n    until: 2999-12-31\n",
  );
  console.log(
    "  access-approvals.yaml: - { identity: payments-ci, group: /, role: owner, approvedBy: demo, … }",
  );
  const approved = await pulumi(gate, root, { quiet: true });
  console.log(`  → with that one entry, pulumi preview exited with ${approved.code}`);
  rmSync(approvals, { force: true });
  await must(["config", "rm", "rootOwner"], root, { quiet: true });

  step("The policy pack on a program with mistakes (examples/policy-violations)");
  const bad = path.join(root, "examples", "policy-violations");
  await configure(bad);
  // Tell no-broad-owner-binding which uid is the owner role (a binding's role name is known only
  // once it exists).
  const owner = (await admin.roles.list({ name: "owner" })).items[0];
  const packConfig = path.join(root, ".pulumi-state", "policy-config.json");
  writeFileSync(
    packConfig,
    JSON.stringify({ "no-broad-owner-binding": { ownerRoleUids: owner ? [owner.uid] : [] } }),
  );
  const preview = await pulumi(
    [
      "preview",
      "--policy-pack",
      path.join(root, "node_modules", "pulumi-irv-policy"),
      "--policy-pack-config",
      packConfig,
    ],
    bad,
    { quiet: true },
  );
  const lines = preview.out.split("\n");
  const from = lines.findIndex((l) => l.startsWith("Policies:"));
  const to = lines.findIndex((l, i) => i > from && /^(Diagnostics|Resources):/.test(l));
  for (const line of lines.slice(from, to < 0 ? undefined : to)) if (line.trim()) console.log(`  ${line}`);
  console.log(`  → pulumi preview exited with ${preview.code}: the pull request would be blocked`);
  await pulumi(["stack", "rm", STACK, "--yes", "--force"], bad, { quiet: true });

  step(flags.keep ? "Keeping everything up (--keep)" : "pulumi destroy");
  await admin.close();
  if (!flags.keep) {
    await must(["destroy", "--yes", "--skip-preview"]);
    await must(["stack", "rm", STACK, "--yes"], root, { quiet: true });
  }
} catch (e) {
  failed = true;
  console.error(`\n\x1b[31mdemo failed: ${(e as Error).message}\x1b[0m`);
}

const stats = (await (
  await fetch(`${emulator.baseUrl}/_emulator/stats`, {
    headers: { authorization: `Bearer ${emulator.adminToken}` },
  })
).json()) as { total: number };
console.log(
  `\n\x1b[1mSummary\x1b[0m: ${failed ? "FAILED" : "done"} in ${elapsed()}; the emulator answered ${stats.total} API requests.`,
);

if (flags.keep && !failed) {
  console.log(`
The emulator keeps running and the stack "${STACK}" is up. In another shell:

  cd ${root}
  export PATH="${cli.binDir}:$PATH" PULUMI_BACKEND_URL="file://${stateDir}" PULUMI_HOME="${homeDir}" PULUMI_CONFIG_PASSPHRASE=pulumi-irv-demo
  pulumi stack output        # the outputs again
  pulumi refresh             # read everything back from the emulator
  pulumi destroy --yes       # remove it
  curl -H "Authorization: Bearer ${emulator.adminToken}" ${emulator.baseUrl}/iam/v2beta1/groups

Press Ctrl+C to stop the emulator.`);
  process.on("SIGINT", async () => {
    await emulator.close();
    process.exit(0);
  });
} else {
  await emulator.close();
  if (!flags.keep) rmSync(path.join(root, "Pulumi.demo.yaml"), { force: true });
  process.exit(failed ? 1 : 0);
}
