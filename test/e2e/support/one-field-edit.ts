// The one-field edit every front end must get right: after the program's platform group changed its
// description, the preview shows one update naming the field, and `up` sends exactly one PATCH with
// that field as its mask.
import { expect } from "vitest";
import type { TestStack } from "../harness/index.js";
import { summary } from "../harness/index.js";
import type { TestEmulator } from "./irv-emulator.js";
import { resourceRoutes } from "./irv-emulator.js";

/**
 * Asserts the preview and the `up` of a group description edited from `from` to `to` (the edit is
 * the caller's: in the program, or through config).
 *
 * @example
 * await stack.setConfig({ platformDescription: "Platform team" });
 * await expectOnePatchEdit(stack, irv, "Platform engineering", "Platform team");
 */
export async function expectOnePatchEdit(
  stack: TestStack,
  irv: TestEmulator,
  from: string,
  to: string,
): Promise<void> {
  const preview = await stack.preview({ args: ["--diff"] });
  const { same: _same, ...changes } = summary(preview.events)?.resourceChanges ?? {};
  expect(changes).toEqual({ update: 1 });
  expect(preview.stdout).toContain(`~ description: "${from}" => "${to}"`);
  await irv.resetStats();
  await stack.up();
  const stats = await irv.stats();
  expect(resourceRoutes(stats.requests)).toEqual({ "PATCH /iam/v2/groups/*": 1 });
  expect(stats.updateMasks).toEqual({ description: 1 });
}
