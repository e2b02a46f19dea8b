import path from "node:path";
import { defineConfig } from "vitest/config";
import { cacheRoot } from "./scripts/pulumi-cli.ts";

// Three suites with different costs: unit (pure, fast), integration (real emulator over loopback HTTP)
// and e2e (the real Pulumi engine). e2e files run two at a time: each one's engine, program and
// provider processes take turns (gRPC round trips, the emulator's answers, injected latency), so one
// file alone leaves much of a two-core machine idle. Every e2e file owns its emulator, stacks and temp
// dirs, and what is built once (the CLI, the hosts, the native plugin) comes from the global setup or
// a locked cache.
// e2e hooks start an emulator and create stacks (seconds; the harness gives up on a stack setup after
// 2 minutes) and dispose of them (a destroy: the harness gives up on one operation after 5 minutes,
// naming it), so 6 minutes only catches what hangs outside the harness. The global setup, which may
// build the Pulumi CLI for minutes on a new machine, is not a hook: vitest runs it without a limit.
/** Unit files that inspect the modules their own process loaded. */
const ISOLATED = ["test/unit/provider/plugin/plugin-imports.test.ts"];

export default defineConfig({
  // Vitest orders files by their last durations (the longest first, so that no long e2e file starts
  // last and runs alone), which it keeps in its cache dir. In node_modules, a fresh clone (CI) has
  // none and falls back to file sizes: kept outside the repo, beside the Pulumi CLI's cache, every
  // clone on the machine orders by what the last run measured.
  cacheDir: path.join(cacheRoot(), "vite"),
  test: {
    // Every project the same, explicitly: vitest's default differs under CI=true, and projects that
    // run side by side must share one worker count. Three on this two-core machine: with two, about
    // a sixth of the CPU sat idle while e2e files waited (injected latency, rate limits, token
    // expiry, the engine between steps); a third file fills it. A full run with three at load 8–12
    // (2026-11-28) failed only where main had a real bug, since fixed: no test flaked.
    maxWorkers: 3,
    projects: [
      // Unit and integration files share their workers' modules (isolate: false): most of a file's
      // time was importing the sources again (unit 53 s → 14 s, integration 80 s → 49 s here). A file
      // that looks at what its process loaded needs a process of its own: unit-isolated.
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], exclude: ISOLATED, isolate: false },
      },
      {
        extends: true,
        test: { name: "unit-isolated", include: ISOLATED },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          testTimeout: 60_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // e2e files share their workers too: each file in a process of its own paid about 3 s of
          // CPU for a fresh Node, vitest, the Automation API (it loads npm's arborist), the emulator
          // and `pulumi version`, before its first engine run. Ten short files side by side, twice:
          // 267 and 276 s of CPU isolated, 239 and 226 s shared. Every file owns its emulator,
          // stacks and temp dirs, and none mocks a module or sets process.env.
          isolate: false,
          testTimeout: 600_000,
          hookTimeout: 360_000,
          maxWorkers: 3,
          globalSetup: ["test/e2e/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          // The packed tarballs installed into fresh projects outside the repo (npm, the real engine).
          name: "consumer",
          include: ["test/consumer/**/*.test.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          globalSetup: ["test/e2e/global-setup.ts"],
        },
      },
    ],
  },
});
