// The quickstart written in each language — TypeScript on the dynamic providers, and Pulumi YAML,
// Python and Go on the native plugin — makes the same org tree: after `up` against a fresh emulator
// each, the groups, identities (claim matches), custom roles and bindings are identical by name.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigValue } from "../harness/index.js";
import { createStack, pulumiBinDir } from "../harness/index.js";
import { prepareGoProgram } from "../support/go-program.js";
import type { TestEmulator } from "../support/irv-emulator.js";
import { startTestEmulator } from "../support/irv-emulator.js";
import type { NativePlugin } from "../support/native-plugin.js";
import { prepareNativePlugin } from "../support/native-plugin.js";
import type { OrgSnapshot } from "../support/org-snapshot.js";
import { orgSnapshot } from "../support/org-snapshot.js";
import type { PreparedPythonProgram } from "../support/python-project.js";
import { preparePythonProgram } from "../support/python-project.js";

const root = path.resolve(import.meta.dirname, "../../..");

/** How one language's quickstart runs: its directory and, on the plugin, what its stack needs. */
interface Quickstart {
  language: string;
  program: string;
  native: boolean;
  config?: (irv: TestEmulator) => Record<string, ConfigValue>;
  /** For a language with its own toolchain: the program made ready (a copy with its dependencies), its env and hooks. */
  prepare?: () => Promise<PreparedPythonProgram>;
}

const QUICKSTARTS: Quickstart[] = [
  {
    language: "TypeScript",
    program: path.join(root, "examples", "quickstart"),
    native: false,
    config: () => ({ teams: JSON.stringify(["payments", "search"]) }),
  },
  { language: "Pulumi YAML", program: path.join(root, "examples", "quickstart-yaml"), native: true },
  {
    language: "Python",
    program: path.join(root, "examples", "quickstart-python"),
    native: true,
    prepare: () => preparePythonProgram(path.join(root, "examples", "quickstart-python"), pulumiBinDir()),
  },
  {
    language: "Go",
    program: path.join(root, "examples", "quickstart-go"),
    native: true,
    prepare: () => prepareGoProgram(path.join(root, "examples", "quickstart-go"), pulumiBinDir()),
  },
];

describe("the quickstart in every language", () => {
  let plugin: NativePlugin;
  const snapshots = new Map<string, OrgSnapshot>();

  beforeAll(async () => {
    plugin = await prepareNativePlugin(pulumiBinDir());
  });

  for (const q of QUICKSTARTS) {
    describe(q.language, () => {
      let irv: TestEmulator;
      afterAll(async () => {
        await irv?.close();
      });

      it("makes its org tree with `pulumi up` and removes it with `destroy`", async () => {
        irv = await startTestEmulator();
        const prepared = await q.prepare?.();
        const stack = await createStack({
          program: prepared?.program ?? q.program,
          config: { ...irv.config, ...q.config?.(irv) },
          ...(q.native ? { env: prepared?.env ?? plugin.env } : {}),
        });
        try {
          if (prepared !== undefined) await prepared.beforeUp(stack);
          else if (q.native) await plugin.install(stack);
          const { outputs } = await stack.up();
          expect(outputs?.platformUid).toMatch(new RegExp(`^${irv.emulator.orgUid}/`));
          snapshots.set(q.language, await orgSnapshot(irv.admin, irv.emulator.orgUid));
          await stack.destroy();
          expect(await irv.admin.groups.collect({ descendantsOf: irv.emulator.orgUid })).toEqual([]);
        } finally {
          await stack.dispose();
          prepared?.dispose();
        }
      });
    });
  }

  it("every language made the same tree: names, parents, claim matches, roles and bindings", () => {
    const [first, ...others] = QUICKSTARTS.map((q) => q.language);
    const reference = snapshots.get(first as string);
    expect(reference?.groups).toEqual([
      "platform/team-payments: The payments team",
      "platform/team-search: The search team",
      "platform: Platform engineering",
    ]);
    expect(reference?.bindings).toEqual([
      "platform/team-payments: payments-ci → viewer",
      "platform/team-search: search-ci → viewer",
      "platform: platform-release → release-reader",
    ]);
    for (const language of others) expect(snapshots.get(language), language).toEqual(reference);
  });
});
