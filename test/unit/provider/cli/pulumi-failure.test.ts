import { describe, expect, it } from "vitest";
import { CliError } from "../../../../provider/cli/cli-error.js";
import { pulumiCause, pulumiStep } from "../../../../provider/cli/pulumi-failure.js";

// What the Automation API throws when `pulumi` exits non-zero: a CommandError whose message is
// `code: -2\n stdout: \n stderr: Command failed with exit code 255: pulumi stack select …`, with
// execa's error (holding the CLI's own stderr) kept in `commandResult.err`.
const commandError = (stderr: string) =>
  Object.assign(
    new Error(
      `code: -2\n stdout: \n stderr: Command failed with exit code 255: pulumi stack select\n${stderr}`,
    ),
    {
      commandResult: {
        stdout: "",
        stderr: `Command failed with exit code 255: pulumi stack select\n${stderr}`,
        code: -2,
        err: {
          exitCode: 255,
          stderr,
          shortMessage: "Command failed with exit code 255: pulumi stack select",
        },
      },
    },
  );

describe("recover's failures of the pulumi CLI", () => {
  // Regression (issue 25 item 2): recover printed the Automation API's raw error.
  it("say the step, the cause in Pulumi's words and what to do, without the Automation API's wrapping", async () => {
    const failed = pulumiStep("select stack prod", async () => {
      throw commandError("error: no stack named 'prod' found\n");
    });
    await expect(failed).rejects.toThrow(CliError);
    const message = await failed.catch((e: Error) => e.message);
    expect(message).toBe(
      "could not select stack prod: no stack named 'prod' found. What to do: check --stack (pulumi stack ls lists the stacks) and that you are logged in to the backend that holds it (pulumi whoami -v)",
    );
    expect(message).not.toMatch(/code: -2|stdout:|stderr:/);
  });

  it("name the passphrase when the stack's secrets cannot be decrypted", async () => {
    const message = await pulumiStep("export the state of stack dev", async () => {
      throw commandError(
        'error: constructing secrets manager of type "passphrase": unable to find either `PULUMI_CONFIG_PASSPHRASE` or `PULUMI_CONFIG_PASSPHRASE_FILE`\n',
      );
    }).catch((e: Error) => e.message);
    expect(message).toMatch(
      /^could not export the state of stack dev: constructing secrets manager .* What to do: set PULUMI_CONFIG_PASSPHRASE/,
    );
  });

  it("fall back to the last line, and to a generic action, for an unknown cause", () => {
    expect(pulumiCause(commandError("warning: x\nsomething odd happened\n"))).toBe("something odd happened");
    expect(pulumiCause(new Error("spawn pulumi ENOENT"))).toBe("spawn pulumi ENOENT");
  });

  it("let the command's own errors through unchanged", async () => {
    const own = new CliError("no stack is selected here: pass --stack NAME");
    await expect(pulumiStep("find the selected stack", async () => Promise.reject(own))).rejects.toBe(own);
  });
});
