// The access review's reads of the state and the config run beside its preview at the lowest CPU
// priority (issue 40: on two cores they cost the review about 1 s of a 22 s preview at 3,000
// resources). A shell stands in for `pulumi` here: what is pinned is how the process is started.
import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { runPulumi } from "../../../../provider/pulumi-cli/index.js";

// Prints its own nice value (field 19 of /proc/<pid>/stat), after a pause that lets the parent
// lower it. `--non-interactive`, which runPulumi appends, becomes the shell's $0.
const NICE = ["-c", "sleep 0.3; cut -d' ' -f19 /proc/$$/stat"];

describe("runPulumi", () => {
  it("runs a background read at the lowest priority, and any other at the caller's", async () => {
    const [background, foreground] = await Promise.all([
      runPulumi(NICE, { cli: "/bin/sh", background: true }),
      runPulumi(NICE, { cli: "/bin/sh" }),
    ]);
    expect(Number(background)).toBe(19);
    expect(Number(foreground)).toBe(getPriority());
  });

  it("fails with one line naming the command and the first line of stderr", async () => {
    await expect(
      runPulumi(["-c", "echo 'no stack named dev' >&2; echo more >&2; exit 1"], {
        cli: "/bin/sh",
        background: true,
      }),
    ).rejects.toThrow(/^pulumi -c .* failed: no stack named dev$/);
  });
});
