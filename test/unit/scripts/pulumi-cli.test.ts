// The code cache on disk is named in one place (scripts/pulumi-cli.ts) for `npm test` and for the
// environment every harnessed CLI command runs in; before, each computed it on its own.
import { describe, expect, it } from "vitest";
import { compileCacheDir, pulumiEnv } from "../../../scripts/pulumi-cli.ts";

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
