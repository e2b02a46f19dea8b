// A release as users get it: `npm run release -- --download-url http://127.0.0.1:<port>/` into a
// temporary directory served on loopback, then the engine, with a fresh PULUMI_HOME, automatic
// plugin acquisition on and NO `node` on PATH, downloads pulumi-resource-irv on first use — from a
// YAML program's `pluginDownloadURL`, from the Python wheel's and from the Go module's
// pulumi-plugin.json — and runs it against the emulator (started apart, on this process's Node).
// The build leaves the checkout as it found it, and its emulator archives and pytest helper wheel are
// byte for byte those of the other release the e2e files share (test/e2e/support/cached-release.ts):
// two builds of one source tree, at other times and with another download URL, which neither carries.
import { execFile, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import services from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import emptyPb from "google-protobuf/google/protobuf/empty_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGoLanguageHost } from "../../../scripts/go-host.ts";
import { ensureGoModuleCache, OFFLINE_GO_ENV } from "../../../scripts/go-sdk.ts";
import { ensureYamlLanguageHost } from "../../../scripts/pulumi-cli.ts";
import { ensurePythonLanguageHost, ensurePythonWheelhouse } from "../../../scripts/python-sdk.ts";
import type { TestStack } from "../harness/index.js";
import { createStack, diagnostics, fixtureDir, pulumiBinDir, summary } from "../harness/index.js";
import { cachedRelease } from "../support/cached-release.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { resourceRoutes, startTestEmulator } from "../support/irv-emulator.js";
import { expectOnePatchEdit } from "../support/one-field-edit.js";
import { createPythonProject } from "../support/python-project.js";
import type { ReleaseServer } from "../support/release-server.js";
import { serveRelease } from "../support/release-server.js";

const root = path.resolve(import.meta.dirname, "../../..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const ARCHIVE = `/pulumi-resource-irv-v${version}-linux-amd64.tar.gz`;

/** A PATH of the given directories, checked to hold no `node` (the point of the test). */
function pathWithoutNode(dirs: string[]): string {
  for (const dir of dirs)
    if (existsSync(path.join(dir, "node"))) throw new Error(`${dir} holds a node: pick another PATH`);
  return dirs.join(path.delimiter);
}

/** `git status --porcelain` of the checkout (untracked files not ignored show as `??`). */
function gitStatus(): string {
  const r = spawnSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git status in ${root}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** The environment of a stack that must get the plugin from the release server by itself. */
function firstUseEnv(dirs: string[], extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: pathWithoutNode(dirs), PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false", ...extra };
}

/** The version the plugin executable answers to GetPluginInfo, started with an empty environment. */
async function pluginInfoVersion(exe: string): Promise<string> {
  const child = spawn(exe, [], { env: {}, stdio: ["pipe", "pipe", "inherit"] });
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const client = new services.ResourceProviderClient(
      `127.0.0.1:${line.trim()}`,
      grpc.credentials.createInsecure(),
    );
    const info = await new Promise<string>((resolve, reject) =>
      client.getPluginInfo(new emptyPb.Empty(), (err, res) =>
        err ? reject(err) : resolve(res.getVersion()),
      ),
    );
    client.close();
    return info;
  } finally {
    child.kill("SIGTERM");
  }
}

/**
 * The first preview fetches the plugin from the release server into the fresh PULUMI_HOME; up and
 * destroy then run on it.
 */
async function expectFirstUseInstall(stack: TestStack, server: ReleaseServer): Promise<void> {
  const before = server.requests.length;
  const preview = await stack.preview();
  expect(diagnostics(preview.events, "error")).toEqual([]);
  expect(server.requests.slice(before)).toContain(ARCHIVE);
  expect(await pluginList(stack)).toEqual([
    expect.objectContaining({ name: "irv", kind: "resource", version }),
  ]);
  const up = await stack.up();
  expect(summary(up.events)?.resourceChanges?.create).toBeGreaterThan(0);
  await stack.destroy();
}

async function pluginList(stack: TestStack): Promise<{ name: string; kind: string; version: string }[]> {
  const ls = await stack.run(["plugin", "ls", "--json"]);
  return JSON.parse(ls.stdout) as { name: string; kind: string; version: string }[];
}

describe("a release, installed by the engine on first use with no Node.js on PATH", () => {
  let server: ReleaseServer;
  let out: string;
  let irv: TestEmulator;
  let cliBin: string;
  /** `git status --porcelain` of the checkout before the release build and after it. */
  let status: { before: string; after: string };

  beforeAll(async () => {
    cliBin = pulumiBinDir();
    server = await serveRelease();
    out = mkdtempSync(path.join(tmpdir(), "irv-release-"));
    const before = gitStatus();
    // `npm run release` is `npm run build` (done by the e2e setup) and then this script.
    await promisify(execFile)(
      process.execPath,
      [path.join(root, "scripts", "release.ts"), "--download-url", server.url, "--out", out],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
    );
    status = { before, after: gitStatus() };
    server.serve(out);
    irv = await startTestEmulator();
    // A release build: minutes on two shared cores (3.7-7.5 min seen), past the e2e hook default.
  }, 900_000);

  afterAll(async () => {
    await irv?.close();
    await server?.close();
    if (out !== undefined) rmSync(out, { recursive: true, force: true });
  });

  describe("the release's files", () => {
    const tarList = (file: string) =>
      spawnSync("tar", ["-tzf", path.join(out, file)], { encoding: "utf8" })
        .stdout.trim()
        .split("\n")
        .sort();

    it("has SHA256SUMS matching every file it holds", () => {
      const r = spawnSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: out, encoding: "utf8" });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const listed = readFileSync(path.join(out, "SHA256SUMS"), "utf8").trim().split("\n");
      expect(listed.map((l) => l.split("  ")[1])).toEqual(
        expect.arrayContaining([
          `pulumi-irv-${version}.tgz`,
          `pulumi-irv-emulator-${version}.tgz`,
          `pulumi-irv-policy-${version}.tgz`,
          `pulumi_irv-${version}-py3-none-any.whl`,
          `pulumi_irv-${version}.tar.gz`,
          "go/irv/go.mod",
          "RELEASE-NOTES.md",
        ]),
      );
      expect(readFileSync(path.join(out, "RELEASE-NOTES.md"), "utf8")).toMatch(
        new RegExp(`^## ${version}\n`),
      );
    });

    // Regression (issue 47): the pytest helper's wheel build left testing/python/pulumi-irv-testing/build/
    // behind, untracked and not ignored.
    it("leaves the checkout's git status as it was", () => {
      expect(status.after).toBe(status.before);
    });

    // Regression (issue 47): each build's irv-emulator archives differed (the build's file times,
    // user and umask in the tar, gzip's time), so a rebuild could not be checked against SHA256SUMS.
    // The pytest helper's wheel carries no download URL either. (The SDK's wheel and sdist do: they
    // are compared with a rebuild in test/e2e/generated-sdks/python-sdk.test.ts.)
    it("has the same irv-emulator archives and pytest helper wheel, byte for byte, as another build of the same sources", async () => {
      const other = await cachedRelease();
      const files = [...Object.values(other.emulator).map((a) => a.file), other.python.testing];
      expect(files).toHaveLength(6);
      const sum = (dir: string, file: string) =>
        createHash("sha256")
          .update(readFileSync(path.join(dir, file)))
          .digest("hex");
      expect(Object.fromEntries(files.map((f) => [f, sum(out, f)]))).toEqual(
        Object.fromEntries(files.map((f) => [f, sum(other.out, f)])),
      );
    }, 900_000);

    it("has an archive per platform with what the engine runs: the executable (or launcher) and the schema", () => {
      const selfContained = ["pulumi-resource-irv", "schema.json"];
      const launcher = ["pulumi-resource-irv", "pulumi-resource-irv.mjs", "schema.json"];
      expect(tarList(`pulumi-resource-irv-v${version}-linux-amd64.tar.gz`)).toEqual(selfContained);
      expect(tarList(`pulumi-resource-irv-v${version}-linux-arm64.tar.gz`)).toEqual(selfContained);
      expect(tarList(`pulumi-resource-irv-v${version}-darwin-amd64.tar.gz`)).toEqual(launcher);
      expect(tarList(`pulumi-resource-irv-v${version}-darwin-arm64.tar.gz`)).toEqual(launcher);
      expect(tarList(`pulumi-resource-irv-v${version}-windows-amd64.tar.gz`)).toEqual([
        "pulumi-resource-irv.cmd",
        "pulumi-resource-irv.mjs",
        "schema.json",
      ]);
    });

    it("stamps package.json's version and the download URL on the schema, the wheel, each pulumi-plugin.json and GetPluginInfo", async () => {
      const unpacked = mkdtempSync(path.join(tmpdir(), "irv-release-check-"));
      try {
        spawnSync("tar", ["-xzf", path.join(out, ARCHIVE.slice(1)), "-C", unpacked]);
        const schema = JSON.parse(readFileSync(path.join(unpacked, "schema.json"), "utf8")) as Record<
          string,
          unknown
        >;
        expect(schema).toMatchObject({ version, pluginDownloadURL: server.url });
        const plugin = { resource: true, name: "irv", version, server: server.url };
        expect(JSON.parse(readFileSync(path.join(out, "go", "irv", "pulumi-plugin.json"), "utf8"))).toEqual(
          plugin,
        );
        const wheel = path.join(out, `pulumi_irv-${version}-py3-none-any.whl`);
        const fromWheel = spawnSync("unzip", ["-p", wheel, "pulumi_irv/pulumi-plugin.json"], {
          encoding: "utf8",
        });
        expect(JSON.parse(fromWheel.stdout)).toEqual(plugin);
        const metadata = spawnSync("unzip", ["-p", wheel, `pulumi_irv-${version}.dist-info/METADATA`], {
          encoding: "utf8",
        });
        expect(metadata.stdout).toContain(`\nVersion: ${version}\n`);
        expect(await pluginInfoVersion(path.join(unpacked, "pulumi-resource-irv"))).toBe(version);
      } finally {
        rmSync(unpacked, { recursive: true, force: true });
      }
    });
  });

  describe("a YAML program declaring the package's version and pluginDownloadURL", () => {
    let stack: TestStack;
    let program: string;

    beforeAll(async () => {
      const yamlBin = await ensureYamlLanguageHost({ cliBinDir: cliBin });
      program = mkdtempSync(path.join(tmpdir(), "irv-release-yaml-"));
      const source = readFileSync(path.join(fixtureDir("release-yaml"), "Pulumi.yaml"), "utf8");
      writeFileSync(
        path.join(program, "Pulumi.yaml"),
        source.replaceAll("VERSION", version).replaceAll("DOWNLOAD_URL", server.url),
      );
      stack = await createStack({ program, config: irv.config, env: firstUseEnv([yamlBin, cliBin]) });
    });

    afterAll(async () => {
      await stack?.dispose();
      if (program !== undefined) rmSync(program, { recursive: true, force: true });
    });

    it("creates the groups with a plugin the engine fetched from the download URL", async () => {
      expect(await pluginList(stack)).toEqual([]);
      await irv.resetStats();
      const up = await stack.up();
      expect(diagnostics(up.events, "error")).toEqual([]);
      expect(server.requests).toContain(ARCHIVE);
      expect(resourceRoutes((await irv.stats()).requests)).toEqual({ "POST /iam/v2/groups/*": 2 });
      const platformUid = (up.outputs as Record<string, string>).platformUid ?? "";
      expect(await irv.admin.groups.get(platformUid)).toMatchObject({ description: "Platform engineering" });
      expect(await pluginList(stack)).toEqual([
        expect.objectContaining({ name: "irv", kind: "resource", version }),
      ]);
    });

    it("updates one field with exactly one PATCH", async () => {
      await stack.setConfig({ platformDescription: "Platform team" });
      await expectOnePatchEdit(stack, irv, "Platform engineering", "Platform team");
    });

    it("destroys both groups", async () => {
      await irv.resetStats();
      await stack.destroy();
      expect(resourceRoutes((await irv.stats()).requests)).toEqual({ "DELETE /iam/v2/groups/*": 2 });
      expect(await stack.resources()).toEqual([]);
    });
  });

  describe("a Python program on the release's wheel", () => {
    let stack: TestStack;
    let dispose: (() => void) | undefined;

    beforeAll(async () => {
      const { wheelhouse, python: toolsPython } = await ensurePythonWheelhouse();
      const pyHost = await ensurePythonLanguageHost({ cliBinDir: cliBin });
      const wheel = path.join(out, `pulumi_irv-${version}-py3-none-any.whl`);
      const project = createPythonProject(
        path.join(root, "examples", "quickstart-python"),
        { wheelhouse, toolsPython },
        [wheel],
      );
      dispose = project.dispose;
      stack = await createStack({
        program: project.dir,
        config: irv.config,
        env: firstUseEnv([pyHost, cliBin]),
      });
      project.linkVenv(stack);
    });

    afterAll(async () => {
      await stack?.dispose();
      dispose?.();
    });

    it("previews and ups with the plugin the wheel's pulumi-plugin.json names, fetched from its server", async () => {
      await expectFirstUseInstall(stack, server);
    });
  });

  describe("a Go program requiring the release's module", () => {
    let stack: TestStack;
    let program: string;

    beforeAll(async () => {
      const log = (line: string) => console.error(line);
      const [goHost] = await Promise.all([
        ensureGoLanguageHost({ cliBinDir: cliBin, log }),
        ensureGoModuleCache({ log }),
      ]);
      program = mkdtempSync(path.join(tmpdir(), "irv-release-go-"));
      cpSync(path.join(root, "examples", "quickstart-go"), program, { recursive: true });
      // The module as its tag publishes it: the release's go/irv, where `go get` would fetch it from.
      const goMod = readFileSync(path.join(program, "go.mod"), "utf8").replace(
        /=> \.\.\/\.\.\/generated-sdks\/go\/irv/,
        `=> ${path.join(out, "go", "irv")}`,
      );
      writeFileSync(path.join(program, "go.mod"), goMod);
      // Go itself is on PATH (the host builds the program), from its own directory: no /usr/bin.
      const goRoot = spawnSync("go", ["env", "GOROOT"], { encoding: "utf8" }).stdout.trim();
      // Without a C compiler on PATH Go builds with cgo off: said outright, and the program built once
      // here (a cold build cache takes minutes) so that the preview's build is the warm one.
      const env = firstUseEnv([goHost, cliBin, path.join(goRoot, "bin")], {
        ...OFFLINE_GO_ENV,
        CGO_ENABLED: "0",
        HOME: process.env.HOME ?? "",
      });
      await promisify(execFile)(
        path.join(goRoot, "bin", "go"),
        ["build", "-o", path.join(program, "warm"), "."],
        {
          cwd: program,
          env,
        },
      );
      rmSync(path.join(program, "warm"));
      stack = await createStack({ program, config: irv.config, env });
    });

    afterAll(async () => {
      await stack?.dispose();
      if (program !== undefined) rmSync(program, { recursive: true, force: true });
    });

    it("previews and ups with the plugin the module's pulumi-plugin.json names, fetched from its server", async () => {
      await expectFirstUseInstall(stack, server);
    });
  });
});
