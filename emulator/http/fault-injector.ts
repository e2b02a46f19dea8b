import type { FaultSpec } from "../core/index.js";
import { hasFaults, NO_FAULTS } from "../core/index.js";

/**
 * What happens to one request.
 *
 * @example
 * const action: FaultAction = faults.decide();
 * if (action === "reset-after") req.resetAfter = true;
 */
export type FaultAction = "none" | "unavailable" | "exhausted" | "reset-before" | "reset-after";

/**
 * Rolls the dice of a fault spec for each request. The order of the rolls is 503, 429, reset before
 * the handler, reset after it, then `reset` (which picks before or after with equal odds: a reset
 * after the handler is the lost answer of a change that did happen, the case retries must survive).
 *
 * @example
 * const faults = new FaultInjector(parseFaultSpec("503=1"));
 * faults.decide(); // "unavailable"
 */
export class FaultInjector {
  private current: FaultSpec = NO_FAULTS;
  /** Whether any fault is set: the hot path checks only this. */
  active = false;

  constructor(
    spec: FaultSpec = NO_FAULTS,
    private readonly random: () => number = Math.random,
  ) {
    this.set(spec);
  }

  /**
   * Replaces the spec.
   *
   * @example
   * faults.set(NO_FAULTS);
   */
  set(spec: FaultSpec): void {
    this.current = { ...spec };
    this.active = hasFaults(spec);
  }

  /** The spec in force. */
  get spec(): FaultSpec {
    return { ...this.current };
  }

  /**
   * The fault for one request.
   *
   * @example
   * if (faults.decide() === "unavailable") …
   */
  decide(): FaultAction {
    const s = this.current;
    if (s.unavailable > 0 && this.random() < s.unavailable) return "unavailable";
    if (s.exhausted > 0 && this.random() < s.exhausted) return "exhausted";
    if (s.resetBefore > 0 && this.random() < s.resetBefore) return "reset-before";
    if (s.resetAfter > 0 && this.random() < s.resetAfter) return "reset-after";
    if (s.reset > 0 && this.random() < s.reset) return this.random() < 0.5 ? "reset-before" : "reset-after";
    return "none";
  }
}
