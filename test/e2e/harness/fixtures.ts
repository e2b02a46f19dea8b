import path from "node:path";
import { fileURLToPath } from "node:url";

const fixturesDir = fileURLToPath(new URL("../fixtures/", import.meta.url));

/**
 * Absolute path of a directory under test/e2e/fixtures. Fixtures live inside the repository so their
 * programs resolve `@pulumi/pulumi` and `@pulumi/policy` from the repository's node_modules.
 * @example
 * createStack({ program: fixtureDir("smoke-program") });
 */
export function fixtureDir(name: string): string {
  return path.join(fixturesDir, name);
}
