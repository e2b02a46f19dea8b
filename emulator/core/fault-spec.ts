/**
 * Injected failures, parsed from a fault spec. Probabilities are in [0, 1]; `latencyMs` is added to
 * every faultable request before anything else happens.
 *
 * @example
 * emu.setFaults({ ...NO_FAULTS, unavailable: 0.1 });
 */
export interface FaultSpec {
  /** Probability of answering 503 (code 14, UNAVAILABLE) instead of handling the request. */
  unavailable: number;
  /** Probability of answering 429 (code 8, RESOURCE_EXHAUSTED) instead of handling the request. */
  exhausted: number;
  /** Probability of a reset that strikes before or after the handler, at random (half each). */
  reset: number;
  /** Probability of a reset before the handler runs (nothing happened). */
  resetBefore: number;
  /** Probability of a reset after the handler ran (the change is made, the answer is lost). */
  resetAfter: number;
  /** Delay added to every faultable request, in milliseconds. */
  latencyMs: number;
  /** Value of `Retry-After` (seconds) on injected 503/429 answers. */
  retryAfterSeconds: number;
}

/**
 * No faults at all.
 *
 * @example
 * emu.setFaults(NO_FAULTS);
 */
export const NO_FAULTS: Readonly<FaultSpec> = Object.freeze({
  unavailable: 0,
  exhausted: 0,
  reset: 0,
  resetBefore: 0,
  resetAfter: 0,
  latencyMs: 0,
  retryAfterSeconds: 0,
});

const KEYS: Record<string, { field: keyof FaultSpec; probability: boolean }> = {
  "503": { field: "unavailable", probability: true },
  "429": { field: "exhausted", probability: true },
  reset: { field: "reset", probability: true },
  "reset-before": { field: "resetBefore", probability: true },
  "reset-after": { field: "resetAfter", probability: true },
  latency: { field: "latencyMs", probability: false },
  "retry-after": { field: "retryAfterSeconds", probability: false },
};

/**
 * Parses a fault spec: a comma list of `key=value` with keys `503`, `429`, `reset` (probabilities),
 * `latency` (ms), plus our extensions `reset-before`, `reset-after` (probabilities) and
 * `retry-after` (seconds, default 0). An empty spec or `none` means no faults. Throws a message
 * naming the bad entry.
 *
 * @example
 * parseFaultSpec("503=0.1,429=0.05,reset=0.02,latency=20");
 * // { unavailable: 0.1, exhausted: 0.05, reset: 0.02, latencyMs: 20, … }
 */
export function parseFaultSpec(spec: string): FaultSpec {
  const out: FaultSpec = { ...NO_FAULTS };
  const text = spec.trim();
  if (text === "" || text === "none") return out;
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    const eq = entry.indexOf("=");
    const key = eq < 0 ? entry : entry.slice(0, eq).trim();
    const value = eq < 0 ? "" : entry.slice(eq + 1).trim();
    const k = KEYS[key];
    if (!k) {
      throw new Error(`unknown fault ${JSON.stringify(key)} (known: ${Object.keys(KEYS).join(", ")})`);
    }
    const n = value === "" ? Number.NaN : Number(value);
    if (!Number.isFinite(n) || n < 0 || (k.probability && n > 1)) {
      throw new Error(
        `fault ${key} needs ${k.probability ? "a probability between 0 and 1" : "a non-negative number"}, got ${JSON.stringify(value)}`,
      );
    }
    out[k.field] = n;
  }
  return out;
}

/**
 * Writes a fault spec back in the `--faults` syntax, listing only what is set.
 *
 * @example
 * formatFaultSpec(parseFaultSpec("503=1")); // "503=1"
 */
export function formatFaultSpec(spec: FaultSpec): string {
  const parts: string[] = [];
  for (const [key, { field }] of Object.entries(KEYS)) {
    if (spec[field] !== 0) parts.push(`${key}=${spec[field]}`);
  }
  return parts.length === 0 ? "none" : parts.join(",");
}

/**
 * Whether any fault can strike (latency counts).
 *
 * @example
 * hasFaults(NO_FAULTS); // false
 */
export function hasFaults(spec: FaultSpec): boolean {
  return (
    spec.unavailable > 0 ||
    spec.exhausted > 0 ||
    spec.reset > 0 ||
    spec.resetBefore > 0 ||
    spec.resetAfter > 0 ||
    spec.latencyMs > 0
  );
}
