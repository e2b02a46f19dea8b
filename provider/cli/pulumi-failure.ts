import { z } from "zod";
import { CliError } from "./cli-error.js";

// What the Automation API keeps of a failed `pulumi` run (privately, in `commandResult`): execa's
// error, whose `stderr` is the CLI's own, or when the process never ran its message alone.
const CommandFailure = z.object({
  commandResult: z.object({
    stderr: z.string().optional(),
    err: z
      .object({
        stderr: z.string().optional(),
        shortMessage: z.string().optional(),
        code: z.string().optional(),
      })
      .optional(),
  }),
});

// Known causes, in Pulumi's wording, and what the user does about each.
const REMEDIES: readonly { cause: RegExp; action: string }[] = [
  {
    cause: /no stack named '?([^'\s]+)'? found/i,
    action:
      "check --stack (pulumi stack ls lists the stacks) and that you are logged in to the backend that holds it (pulumi whoami -v)",
  },
  {
    cause: /passphrase/i,
    action: "set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the stack's passphrase",
  },
  {
    cause: /no Pulumi\.yaml|no Pulumi project found|could not find Pulumi\.yaml/i,
    action: "run it in the Pulumi project's directory or pass --cwd DIR",
  },
  {
    cause: /ENOENT|command not found|not recognized as an internal/i,
    action: "install the Pulumi CLI or put it on PATH (recover runs your own pulumi)",
  },
  {
    cause: /currently locked by|Another update is currently in progress/i,
    action:
      "another pulumi command is running on this stack: wait for it to end (a killed one's lock is cancelled by recover --apply)",
  },
];

const FALLBACK_ACTION =
  "check the project directory (--cwd), the stack (--stack) and the backend you are logged in to (pulumi whoami -v), then run recover again";

/**
 * The cause of a failed `pulumi` command in Pulumi's own words: its `error:` lines (or its last
 * line), without the Automation API's `code: … stdout: … stderr:` wrapping.
 *
 * @example
 * pulumiCause(err); // "no stack named 'prod' found"
 */
export function pulumiCause(err: unknown): string {
  const parsed = CommandFailure.safeParse(err);
  const text = parsed.success
    ? (parsed.data.commandResult.err?.stderr ??
      parsed.data.commandResult.err?.shortMessage ??
      parsed.data.commandResult.stderr ??
      "")
    : err instanceof Error
      ? err.message
      : String(err);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const errors = [
    ...new Set(lines.filter((l) => /^error: /i.test(l)).map((l) => l.replace(/^error: /i, ""))),
  ];
  return (errors.length > 0 ? errors.join("; ") : (lines.at(-1) ?? "")) || "the pulumi command failed";
}

/**
 * Runs one step of recover that drives the Pulumi CLI; a failure becomes one {@link CliError}
 * naming the step, the cause in Pulumi's words and what to do, instead of the Automation API's raw
 * `code: -2 | stdout: | stderr: Command failed…`.
 *
 * @example
 * const stack = await pulumiStep(`select stack ${name}`, () => Stack.select(name, workspace));
 */
export async function pulumiStep<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof CliError) throw err;
    const cause = pulumiCause(err);
    const action = REMEDIES.find((r) => r.cause.test(cause))?.action ?? FALLBACK_ACTION;
    throw new CliError(`could not ${step}: ${cause}. What to do: ${action}`);
  }
}
