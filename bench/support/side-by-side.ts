// Timing two or more ways of doing the same thing in one run, the way every benchmark here compares:
// each round runs every step on every side, alternating which side goes first, so that drift in the
// machine's load (other work on a shared machine) hits the sides alike; the figures are medians of
// the rounds, and ratios are taken between sides of the same run.
import { median, ms, progress } from "./bench-kit.ts";

/**
 * The sides in the order they run the `n`-th time: as given when `n` is even, reversed when odd.
 *
 * @example
 * alternate(["irv", "noop"], 1); // ["noop", "irv"]
 */
export function alternate<S>(sides: readonly S[], n: number): readonly S[] {
  return n % 2 === 0 ? sides : [...sides].reverse();
}

/**
 * Runs `f` and times it (wall clock). A synchronous `f` is timed without a turn of the event loop.
 *
 * @example
 * const { value, durationMs } = await timed(() => client.repos.collect({}));
 */
export async function timed<T>(f: () => T | Promise<T>): Promise<{ value: T; durationMs: number }> {
  const started = performance.now();
  const result = f();
  const value = result instanceof Promise ? await result : result;
  return { value, durationMs: performance.now() - started };
}

/**
 * The median of `f` over samples.
 *
 * @example
 * medianOf(samples.up.irv, (s) => s.durationMs);
 */
export function medianOf<S>(samples: readonly S[], f: (s: S) => number): number {
  return median(samples.map(f));
}

/**
 * A step every side runs; its key names it in the samples.
 *
 * @example
 * const step: Step = { key: "refresh" };
 */
export interface Step {
  key: string;
}

/**
 * What {@link timeSteps} collects: per step key, per side, one sample per round in round order.
 *
 * @example
 * const upTimes = samples["up-create"]?.irv.map((s) => s.durationMs);
 */
export type Samples<Side extends string, S> = Record<string, Record<Side, S[]>>;

/**
 * Options of {@link timeSteps}.
 *
 * @example
 * const options: TimeStepsOptions<Step, "irv" | "noop", { durationMs: number }> = {
 *   rounds: 3, steps: [{ key: "up" }], sides: ["irv", "noop"], run: (_step, side) => stacks[side].up(),
 * };
 */
export interface TimeStepsOptions<St extends Step, Side extends string, S extends { durationMs: number }> {
  rounds: number;
  steps: readonly St[];
  sides: readonly Side[];
  /** Runs one step on one side (`round` counts from 1) and returns what to keep of it. */
  run(step: St, side: Side, round: number): Promise<S>;
  /** More for the progress line of a run, after its time. */
  note?(sample: S, step: St, side: Side): string;
}

/**
 * Runs every step on every side for `rounds` rounds, alternating which side goes first from one
 * step to the next and from one round to the next, and prints a progress line per run.
 *
 * @example
 * const samples = await timeSteps({ rounds: 3, steps: STEPS, sides: ["irv", "noop"], run: (step, side) => step.run(stacks[side]) });
 */
export async function timeSteps<St extends Step, Side extends string, S extends { durationMs: number }>(
  options: TimeStepsOptions<St, Side, S>,
): Promise<Samples<Side, S>> {
  const { rounds, steps, sides } = options;
  const samples: Samples<Side, S> = {};
  for (const step of steps)
    samples[step.key] = Object.fromEntries(sides.map((side) => [side, [] as S[]])) as Record<Side, S[]>;
  for (let round = 1; round <= rounds; round++) {
    for (const [i, step] of steps.entries()) {
      for (const side of alternate(sides, round + i)) {
        const sample = await options.run(step, side, round);
        samples[step.key]?.[side].push(sample);
        const note = options.note?.(sample, step, side);
        progress(
          `round ${round}/${rounds} ${step.key} ${side}: ${ms(sample.durationMs)}${note ? ` ${note}` : ""}`,
        );
      }
    }
  }
  return samples;
}

/**
 * Two sides' medians of one step and their ratio.
 *
 * @example
 * const { a, b, ratio }: SideRatio = compareSides(samples, STEPS, "irv", "noop").total;
 */
export interface SideRatio {
  key: string;
  a: number;
  b: number;
  ratio: number;
}

/**
 * Per step, the median time of side `a` and of side `b` and their ratio; and the sums of those
 * medians over every step (`key: "total"`), the figure of a whole sequence of commands.
 *
 * @example
 * const { steps, total } = compareSides(samples, STEPS, "irv", "noop");
 * total.ratio; // e.g. 0.94
 */
export function compareSides<Side extends string, S extends { durationMs: number }>(
  samples: Samples<Side, S>,
  steps: readonly Step[],
  a: Side,
  b: Side,
): { steps: SideRatio[]; total: SideRatio } {
  const rows = steps.map((step) => {
    const of = (side: Side) => medianOf(samples[step.key]?.[side] ?? [], (s) => s.durationMs);
    const [ma, mb] = [of(a), of(b)];
    return { key: step.key, a: ma, b: mb, ratio: ma / mb };
  });
  const sum = (f: (r: SideRatio) => number) => rows.reduce((n, r) => n + f(r), 0);
  const total = {
    key: "total",
    a: sum((r) => r.a),
    b: sum((r) => r.b),
    ratio: sum((r) => r.a) / sum((r) => r.b),
  };
  return { steps: rows, total };
}
