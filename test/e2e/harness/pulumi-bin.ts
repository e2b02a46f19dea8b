import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Bin dir with `pulumi` and its Node.js plugins, provided once by test/e2e/global-setup.ts. */
    pulumiBinDir: string;
  }
}

/**
 * The bin dir holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`.
 * Inside the e2e vitest project it comes from the global setup (which finds or builds the CLI once);
 * elsewhere `IRV_PULUMI_BIN` must name it.
 * @example
 * const bin = pulumiBinDir(); // "/home/me/.cache/pulumi-irv/pulumi-v3.259.0/bin"
 */
export function pulumiBinDir(): string {
  let provided: string | undefined;
  try {
    provided = inject("pulumiBinDir");
  } catch {
    // Not running inside a vitest worker with the e2e global setup.
  }
  const dir = provided ?? process.env.IRV_PULUMI_BIN;
  if (dir === undefined || dir === "") {
    throw new Error(
      "No Pulumi CLI: run e2e tests through the vitest `e2e` project (its global setup provides the CLI) " +
        "or set IRV_PULUMI_BIN to a directory holding `pulumi` (see `node scripts/pulumi-cli.ts`).",
    );
  }
  return dir;
}
