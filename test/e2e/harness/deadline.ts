import { recordTiming } from "./timings.js";

/** How long an operation interrupted at its deadline may take to cancel before the harness gives up on it. */
export const CANCEL_GRACE_MS = 15_000;

/** Thrown when a Pulumi command (or a whole stack setup) does not finish in time. */
export class PulumiTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, output: string, cause?: unknown) {
    const tail = output.trim().split("\n").slice(-40).join("\n");
    super(
      `${what} did not finish within ${Math.round(timeoutMs / 1000)} s, so the test gave up on it ` +
        "(a hung engine, program, provider or emulator; raise `timeoutMs` of createStack if it is only slow)." +
        (tail === "" ? "" : ` Its last output:\n${tail}`),
      cause === undefined ? undefined : { cause },
    );
    this.name = "PulumiTimeoutError";
  }
}

/**
 * Runs `work` with an AbortSignal that fires after `timeoutMs`. The Automation API answers an abort with
 * SIGINT, which lets the CLI cancel cleanly; a hung engine may never get there, so the harness stops
 * waiting `cancelGraceMs` later (0 for work that cannot be interrupted: workspace commands take no
 * signal). Either way a timed-out command fails with a
 * {@link PulumiTimeoutError} naming `what` (a function: evaluated then, e.g. for the current step)
 * and its last output, never with a bare exit code.
 * @example
 * await withDeadline("`pulumi up`", 300_000, () => output, (signal) => stack.up({ signal }));
 */
export async function withDeadline<T>(
  what: string | (() => string),
  timeoutMs: number,
  output: () => string,
  work: (signal: AbortSignal) => Promise<T>,
  cancelGraceMs = CANCEL_GRACE_MS,
): Promise<T> {
  const controller = new AbortController();
  let abortTimer: NodeJS.Timeout | undefined;
  let giveUpTimer: NodeJS.Timeout | undefined;
  const timedOut = (cause?: unknown) =>
    new PulumiTimeoutError(typeof what === "string" ? what : what(), timeoutMs, output(), cause);
  const deadline = new Promise<never>((_, reject) => {
    abortTimer = setTimeout(() => {
      controller.abort();
      giveUpTimer = setTimeout(() => reject(timedOut()), cancelGraceMs);
    }, timeoutMs);
  });
  const guarded = work(controller.signal).catch((err: unknown) => {
    throw controller.signal.aborted ? timedOut(err) : err;
  });
  const started = performance.now();
  try {
    return await Promise.race([guarded, deadline]);
  } finally {
    recordTiming(typeof what === "string" ? what : what(), performance.now() - started);
    clearTimeout(abortTimer);
    clearTimeout(giveUpTimer);
  }
}
