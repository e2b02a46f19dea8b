// Stack resources of the native plugin's tokens, as the access review reads them, for unit tests.
import type { StackResource } from "../../../review/index.js";

/** A root organization uid. */
export const ORG = "a".repeat(40);

/** One 16-hex segment of a hierarchical uid. */
export const seg = (n: number): string => n.toString(16).padStart(16, "0");

/** A stack resource `irv:iam:<cls>` named `name` in stack dev of project org. */
export const iamResource = (cls: string, name: string, props: Record<string, unknown>): StackResource => ({
  urn: `urn:pulumi:dev::org::irv:iam:${cls}::${name}`,
  type: `irv:iam:${cls}`,
  props,
});
