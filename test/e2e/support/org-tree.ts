// The generated org tree of test/e2e/fixtures/org-tree-program as the fault-tolerance tests use it:
// its stack config, the names it declares, and what the emulator really holds, so that a test can
// assert "exactly the declared resources, each once".
import { afterAll, beforeAll } from "vitest";
import type { EmulatorOptions } from "../../../emulator/index.js";
import type { IrvClient } from "../../../sdk/index.js";
import type { ConfigValue, TestStack, TestStackOptions } from "../harness/index.js";
import { createStack, fixtureDir } from "../harness/index.js";
import type { TestEmulator } from "./irv-emulator.js";
import { startTestEmulator } from "./irv-emulator.js";
import type { StateBackendKind } from "./state-backend.js";
import { useStateBackend } from "./state-backend.js";

/** Size and naming of a generated org tree (see the program's header). */
export interface OrgTreeShape {
  groups: number;
  identities: number;
  bindings: number;
  /** Prefix of every name, so that several trees can share an emulator. */
  prefix: string;
  /** claimMatch issuer of the identities; default the program's (GitHub Actions). */
  issuer?: string;
  /** Children per group in the tree (default 4); 1 makes a chain, created one after the other. */
  fanout?: number;
}

/**
 * Stack config (besides credentials) for the org-tree program.
 *
 * @example
 * createStack({ program: fixtureDir("org-tree-program"), config: { ...irv.config, ...orgTreeConfig(shape) } });
 */
export function orgTreeConfig(shape: OrgTreeShape): Record<string, ConfigValue> {
  const config: Record<string, ConfigValue> = {
    groups: String(shape.groups),
    identities: String(shape.identities),
    bindings: String(shape.bindings),
    prefix: shape.prefix,
  };
  if (shape.issuer !== undefined) config.issuer = shape.issuer;
  if (shape.fanout !== undefined) config.fanout = String(shape.fanout);
  return config;
}

const pad = (n: number) => String(n).padStart(3, "0");

/** What a shape declares: group and identity names, and bindings as "identity name → role name". */
export interface OrgTreeInventory {
  groups: string[];
  identities: string[];
  bindings: string[];
}

/**
 * The names the program declares for a shape, sorted (bindings: one role, `viewer`).
 *
 * @example
 * expect(await inventory(irv.admin, orgUid, "flaky")).toEqual(declared(shape));
 */
export function declared(shape: OrgTreeShape): OrgTreeInventory {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return {
    groups: range(shape.groups).map((i) => `${shape.prefix}-g-${pad(i)}`),
    identities: range(shape.identities).map((j) => `${shape.prefix}-id-${pad(j)}`),
    bindings: range(shape.bindings)
      .map((k) => `${shape.prefix}-id-${pad(k % shape.identities)} → viewer`)
      .sort(),
  };
}

/**
 * What the emulator holds under the organization whose names start with `prefix` — duplicates
 * included, so comparing with {@link declared} proves "each once".
 *
 * @example
 * const held = await inventory(irv.admin, irv.emulator.orgUid, "flaky");
 */
export async function inventory(admin: IrvClient, orgUid: string, prefix: string): Promise<OrgTreeInventory> {
  const mine = (name: string) => name.startsWith(`${prefix}-`);
  const [groups, identities, bindings] = await Promise.all([
    admin.groups.collect({ descendantsOf: orgUid }),
    admin.identities.collect({ descendantsOf: orgUid }),
    admin.roleBindings.collect({ descendantsOf: orgUid }),
  ]);
  return {
    groups: groups
      .map((g) => g.name)
      .filter(mine)
      .sort(),
    identities: identities
      .map((i) => i.name)
      .filter(mine)
      .sort(),
    bindings: bindings
      .filter((b) => mine(b.identity.name))
      .map((b) => `${b.identity.name} → ${b.role.name}`)
      .sort(),
  };
}

/**
 * A seeded random source in [0, 1) (mulberry32), for reproducible fault dice.
 *
 * @example
 * startTestEmulator({ random: seededRandom(7) });
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The emulator and stack of {@link useOrgTreeStack}, available once `beforeAll` ran. */
export interface OrgTreeStack {
  readonly irv: TestEmulator;
  readonly stack: TestStack;
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start an emulator and create a stack of the org-tree
 * program of `shape` against it (its state on `backend`: default the harness's file backend; its
 * `stackOptions` as createStack takes them), and tear both down (faults off first, so cleanup is not flaky).
 *
 * @example
 * const t = useOrgTreeStack({ groups: 20, identities: 20, bindings: 20, prefix: "flaky" });
 * it("converges", async () => { await t.stack.up(); });
 */
export function useOrgTreeStack(
  shape: OrgTreeShape,
  emulator: EmulatorOptions = {},
  backend: StateBackendKind = "file",
  stackOptions: Pick<TestStackOptions, "checkpoints"> = {},
): OrgTreeStack {
  const state = useStateBackend(backend);
  let irv: TestEmulator | undefined;
  let stack: TestStack | undefined;
  beforeAll(async () => {
    irv = await startTestEmulator(emulator);
    const backendUrl = await state.newUrl();
    stack = await createStack({
      program: fixtureDir("org-tree-program"),
      config: { ...irv.config, ...orgTreeConfig(shape) },
      ...(backendUrl === undefined ? {} : { backendUrl }),
      ...stackOptions,
    });
  });
  afterAll(async () => {
    irv?.emulator.setFaults("none");
    await stack?.dispose();
    await irv?.close();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("useOrgTreeStack: used before beforeAll ran");
    return v;
  };
  return {
    get irv() {
      return ready(irv);
    },
    get stack() {
      return ready(stack);
    },
  };
}
