import { appendFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

/**
 * Where the e2e time goes, command by command: with `IRV_E2E_TIMINGS=<file>`, every bounded Pulumi
 * command or stack setup appends one JSON line `{file, test, what, ms}` to that file. Off by default;
 * sum it up with `jq` (docs/development.md).
 * @example
 * recordTiming("`pulumi up`", 5120); // {"file":"provider/org-lifecycle.test.ts","what":"`pulumi up`",…}
 */
export function recordTiming(what: string, ms: number): void {
  const out = process.env.IRV_E2E_TIMINGS;
  if (out === undefined || out === "") return;
  let file = "";
  let test = "";
  try {
    const state = expect.getState();
    file =
      state.testPath === undefined ? "" : path.relative(path.join(import.meta.dirname, ".."), state.testPath);
    test = state.currentTestName ?? "(hook)";
  } catch {
    // Outside a test (a global setup): no file to charge.
  }
  appendFileSync(out, `${JSON.stringify({ file, test, what, ms: Math.round(ms) })}\n`);
}
