// The code cache on disk is named in one place (scripts/pulumi-cli.ts) for `npm test` and for the
// environment every harnessed CLI command runs in; before, each computed it on its own.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileCacheDir, ensurePulumiCli, pulumiEnv } from "../../../scripts/pulumi-cli.ts";

describe("compileCacheDir", () => {
  it("is NODE_COMPILE_CACHE when set, else beside the CLI's cache under XDG_CACHE_HOME", () => {
    expect(compileCacheDir({ NODE_COMPILE_CACHE: "/tmp/ncc", XDG_CACHE_HOME: "/c" })).toBe("/tmp/ncc");
    expect(compileCacheDir({ XDG_CACHE_HOME: "/c" })).toBe("/c/pulumi-irv/node-compile-cache");
  });

  it("is what every harnessed CLI command gets", () => {
    const options = { binDir: "/bin", stateDir: "/s", homeDir: "/h" };
    expect(pulumiEnv({ ...options, baseEnv: { XDG_CACHE_HOME: "/c" } }).NODE_COMPILE_CACHE).toBe(
      "/c/pulumi-irv/node-compile-cache",
    );
    expect(pulumiEnv({ ...options, baseEnv: { NODE_COMPILE_CACHE: "/mine" } }).NODE_COMPILE_CACHE).toBe(
      "/mine",
    );
  });
});

// Issue 46: the dynamic-provider shim used to resolve @pulumi/pulumi's entry in a `node -e` of its own,
// a second Node start for every provider the engine runs.
describe("the pulumi-resource-pulumi-nodejs shim", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  /** A cache with our shims beside a stand-in `pulumi`, and a `node` on PATH that logs each start. */
  async function installedShim(): Promise<{
    shim: string;
    env: NodeJS.ProcessEnv;
    starts: () => string[][];
  }> {
    const root = mkdtempSync(path.join(tmpdir(), "irv-shim-"));
    made.push(root);
    const fakeBin = path.join(root, "fake-bin");
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, "pulumi"), "#!/bin/sh\necho v3.259.0\n", { mode: 0o755 });
    const log = path.join(root, "node-starts.log");
    writeFileSync(
      path.join(fakeBin, "node"),
      `#!/bin/sh\nprintf '%s\\0' "$@" >> '${log}'\necho >> '${log}'\nexec '${process.execPath}' "$@"\n`,
      { mode: 0o755 },
    );
    const env = {
      ...process.env,
      PATH: `${fakeBin}${path.delimiter}${process.env.PATH}`,
      XDG_CACHE_HOME: root,
    };
    const { binDir } = await ensurePulumiCli({ env, log: () => {} });
    const starts = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((l) => l !== "")
            .map((l) => l.split("\0").filter((a) => a !== ""))
        : [];
    return { shim: path.join(binDir, "pulumi-resource-pulumi-nodejs"), env, starts };
  }

  it("starts the program's dynamic provider in one Node process, with the import preload", async () => {
    const { shim, env, starts } = await installedShim();
    const child = spawn(shim, ["127.0.0.1:1"], {
      cwd: process.cwd(),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const firstLine = await new Promise<string>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
      });
      child.stderr.on("data", (d) => (err += d));
      child.on("close", (code) => reject(new Error(`shim exited ${code} before its port: ${err}`)));
    });
    child.kill("SIGTERM");
    expect(firstLine).toMatch(/^\d+$/);
    const all = starts();
    expect(all).toHaveLength(1);
    expect(all[0]?.[0]).toBe("--require");
    expect(all[0]?.[1]).toMatch(/dynamic-provider-preload-[0-9a-f]{12}\.cjs$/);
  }, 60_000);

  it("names the directory and what to run when @pulumi/pulumi is not installed there", async () => {
    const { shim, env } = await installedShim();
    const dir = mkdtempSync(path.join(tmpdir(), "irv-no-sdk-"));
    made.push(dir);
    const r = spawnSync(shim, ["127.0.0.1:1"], { cwd: dir, env, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `pulumi-resource-pulumi-nodejs: cannot resolve @pulumi/pulumi/cmd/dynamic-provider from ${dir}; run npm install there.\n`,
    );
  }, 30_000);
});
