// `pulumi preview --json` as a pull request shows it: the steps the engine plans, reduced to what a
// reviewer reads (operation, resource, and the properties behind it).
import type { TestStack } from "../harness/index.js";

/** One planned step of `pulumi preview --json`, as much of it as the tests read. */
export interface PreviewStep {
  /** `same`, `create`, `update`, `replace`, `create-replacement`, `delete-replaced`, `delete`, … */
  op: string;
  urn: string;
  /** Properties whose change causes the step (`diffReasons` of the JSON). */
  diffReasons?: string[];
  /** Properties whose change forces the replacement (`replaceReasons` of the JSON). */
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
}

/** A step as `op name [properties]`, e.g. `update middle [description]`: short to assert and to read. */
export type StepLine = string;

/**
 * Runs `pulumi preview --json` (with `--diff`, as a pull request check does) and returns its steps
 * that change something (not `same`), as `op name [properties]` lines, sorted.
 *
 * @example
 * expect(await previewChanges(stack)).toEqual(["update middle [description]"]);
 */
export async function previewChanges(stack: TestStack): Promise<StepLine[]> {
  return (await previewSteps(stack))
    .filter((s) => s.op !== "same")
    .map(stepLine)
    .sort();
}

/**
 * Every step of `pulumi preview --json --diff` for the stack, `same` included.
 *
 * @example
 * const steps = await previewSteps(stack);
 */
export async function previewSteps(stack: TestStack): Promise<PreviewStep[]> {
  const r = await stack.run(["preview", "--json", "--diff", "--stack", stack.stackName, "--non-interactive"]);
  const out = JSON.parse(r.stdout) as { steps?: PreviewStep[] };
  return (out.steps ?? []).filter((s) => !s.urn.includes("::pulumi:pulumi:Stack::"));
}

/**
 * `op name [properties]`: the logical name is the last URN segment; the properties are the replace
 * reasons of a replacement, else the diff reasons.
 *
 * @example
 * stepLine({ op: "replace", urn: "urn:…::leaf", replaceReasons: ["parentUid"] }); // "replace leaf [parentUid]"
 */
export function stepLine(s: PreviewStep): StepLine {
  const name = s.urn.slice(s.urn.lastIndexOf("::") + 2);
  const reasons = s.op.includes("replace") ? (s.replaceReasons ?? s.diffReasons) : s.diffReasons;
  return `${s.op} ${name} [${[...(reasons ?? [])].sort().join(", ")}]`;
}
