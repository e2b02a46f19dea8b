/** The engine operations a test stack runs. */
export type Operation = "preview" | "up" | "refresh" | "destroy";

/** The Automation API options that CLI flags given in `OperationOptions.args` become. */
export interface FlagOptions {
  expectNoChanges?: boolean;
  refresh?: boolean;
  diff?: boolean;
  targetDependents?: boolean;
  excludeDependents?: boolean;
  continueOnError?: boolean;
  clearPendingCreates?: boolean;
  excludeProtected?: boolean;
  suppressOutputs?: boolean;
  target?: string[];
  replace?: string[];
  exclude?: string[];
  parallel?: number;
  debug?: boolean;
  logToStdErr?: boolean;
  logVerbosity?: number;
}

type Flag =
  | {
      option:
        | "expectNoChanges"
        | "refresh"
        | "diff"
        | "targetDependents"
        | "excludeDependents"
        | "continueOnError"
        | "clearPendingCreates"
        | "excludeProtected"
        | "suppressOutputs"
        | "debug"
        | "logToStdErr";
      takes: "nothing";
    }
  | { option: "target" | "replace" | "exclude"; takes: "urn" }
  | { option: "parallel" | "logVerbosity"; takes: "number" };

/** Each supported flag, the option it becomes and the operations that accept it (as the CLI does). */
const FLAGS: Record<string, Flag & { ops: readonly Operation[] }> = {
  "--expect-no-changes": { option: "expectNoChanges", takes: "nothing", ops: ["preview", "up", "refresh"] },
  "--refresh": { option: "refresh", takes: "nothing", ops: ["preview", "up", "destroy"] },
  "--diff": { option: "diff", takes: "nothing", ops: ["preview", "up", "destroy"] },
  "--target-dependents": {
    option: "targetDependents",
    takes: "nothing",
    ops: ["preview", "up", "refresh", "destroy"],
  },
  "--exclude-dependents": {
    option: "excludeDependents",
    takes: "nothing",
    ops: ["preview", "up", "refresh", "destroy"],
  },
  "--continue-on-error": { option: "continueOnError", takes: "nothing", ops: ["up", "destroy"] },
  "--clear-pending-creates": { option: "clearPendingCreates", takes: "nothing", ops: ["refresh"] },
  "--exclude-protected": { option: "excludeProtected", takes: "nothing", ops: ["destroy"] },
  "--suppress-outputs": {
    option: "suppressOutputs",
    takes: "nothing",
    ops: ["preview", "up", "refresh", "destroy"],
  },
  "--target": { option: "target", takes: "urn", ops: ["preview", "up", "refresh", "destroy"] },
  "--replace": { option: "replace", takes: "urn", ops: ["preview", "up"] },
  "--exclude": { option: "exclude", takes: "urn", ops: ["preview", "up", "refresh", "destroy"] },
  "--parallel": { option: "parallel", takes: "number", ops: ["preview", "up", "refresh", "destroy"] },
  // What a user turns on to see more: debug events in the display, the CLI's own logs on stderr.
  "--debug": { option: "debug", takes: "nothing", ops: ["preview", "up", "refresh", "destroy"] },
  "--logtostderr": { option: "logToStdErr", takes: "nothing", ops: ["preview", "up", "refresh", "destroy"] },
  "-v": { option: "logVerbosity", takes: "number", ops: ["preview", "up", "refresh", "destroy"] },
};

/**
 * Turns the CLI flags a test gives an operation (`["--expect-no-changes"]`, `["--target", urn]`) into the
 * Automation API's options for it. A flag it does not know, or one the operation does not take, is an
 * error naming the flags it knows: the Automation API has no way to pass raw flags.
 * @example
 * flagOptions("preview", ["--expect-no-changes"]); // { expectNoChanges: true }
 */
export function flagOptions(op: Operation, args: readonly string[]): FlagOptions {
  const options: FlagOptions = {};
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = (args[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    const flag = FLAGS[name];
    if (flag === undefined || !flag.ops.includes(op)) {
      const known = Object.entries(FLAGS)
        .filter(([, f]) => f.ops.includes(op))
        .map(([n]) => n);
      throw new Error(
        `OperationOptions.args: \`${name}\` is not supported for ${op}; supported: ${known.join(", ")}`,
      );
    }
    if (flag.takes === "nothing") {
      options[flag.option] = inline === undefined ? true : inline !== "false";
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`OperationOptions.args: \`${name}\` needs a value`);
    if (flag.takes === "urn") options[flag.option] = [...(options[flag.option] ?? []), value];
    else {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1)
        throw new Error(`OperationOptions.args: \`${name}\` needs a positive integer, got "${value}"`);
      options[flag.option] = n;
    }
  }
  return options;
}
