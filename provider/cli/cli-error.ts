/**
 * An error the `pulumi-irv` command reports as its message alone (no stack), exiting with `exitCode`.
 *
 * @example
 * throw new CliError("no stack is selected here: pass --stack NAME");
 */
export class CliError extends Error {
  // A field, not a parameter property: the bin's entry files stay plain erasable TypeScript.
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
