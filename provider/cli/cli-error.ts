/**
 * An error the `pulumi-irv` command reports as its message alone (no stack), exiting with `exitCode`.
 *
 * @example
 * throw new CliError("no stack is selected here: pass --stack NAME");
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}
