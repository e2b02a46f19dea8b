// The e2e harness gives up on what hangs within minutes, with a message that names the command or the
// setup step, instead of waiting for vitest's limit (once an hour) with nothing to go on. And flags the
// Automation API cannot take are refused up front rather than silently dropped.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TestStack } from "../harness/index.js";
import { createStack, fixtureDir, PulumiTimeoutError } from "../harness/index.js";

describe("an operation whose program never finishes", () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const s of stacks) await s.dispose();
  });

  it("fails with a PulumiTimeoutError naming the command, once its time is up", async () => {
    const stack = await createStack({ program: fixtureDir("hanging-program"), timeoutMs: 10_000 });
    stacks.push(stack);
    const preview = stack.preview();
    await expect(preview).rejects.toBeInstanceOf(PulumiTimeoutError);
    await expect(preview).rejects.toThrow(
      /^`pulumi preview` did not finish within 10 s, so the test gave up/,
    );
  });

  it("refuses a CLI flag the Automation API has no option for, listing those it has", async () => {
    const stack = await createStack({ program: fixtureDir("hanging-program") });
    stacks.push(stack);
    await expect(stack.preview({ args: ["--show-sames"] })).rejects.toThrow(
      "OperationOptions.args: `--show-sames` is not supported for preview; supported: --expect-no-changes, --refresh",
    );
  });
});

describe("a stack setup that hangs", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "irv-hung-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails with a PulumiTimeoutError naming the step it hung at", async () => {
    // A CLI that answers `pulumi version` and then hangs on everything else (for a while: the harness
    // cannot interrupt a workspace command, only stop waiting for it).
    const bin = path.join(dir, "bin");
    mkdirSync(bin);
    const pulumi = path.join(bin, "pulumi");
    writeFileSync(pulumi, '#!/bin/sh\n[ "$1" = version ] && { echo v3.259.0; exit 0; }\nsleep 20\nexit 1\n');
    chmodSync(pulumi, 0o755);
    const setup = createStack({ program: fixtureDir("smoke-program"), binDir: bin, setupTimeoutMs: 3_000 });
    await expect(setup).rejects.toBeInstanceOf(PulumiTimeoutError);
    await expect(setup).rejects.toThrow(/^createStack \(`pulumi stack init`\) did not finish within 3 s/);
  });
});
