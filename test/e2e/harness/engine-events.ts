import type {
  DiagnosticEvent,
  EngineEvent,
  PolicyEvent,
  SummaryEvent,
} from "@pulumi/pulumi/automation/index.js";

export type { DiagnosticEvent, EngineEvent, PolicyEvent, SummaryEvent };

/**
 * Policy violations reported during an operation (mandatory and advisory).
 * @example
 * expect(policyViolations(result.events).map((v) => v.policyName)).toContain("no-forbidden-text");
 */
export function policyViolations(events: readonly EngineEvent[]): PolicyEvent[] {
  return events.flatMap((e) => (e.policyEvent ? [e.policyEvent] : []));
}

/**
 * Diagnostics (log lines, warnings, errors) of an operation, optionally of one severity.
 * @example
 * diagnostics(result.events, "error").map((d) => d.message);
 */
export function diagnostics(
  events: readonly EngineEvent[],
  severity?: DiagnosticEvent["severity"],
): DiagnosticEvent[] {
  return events.flatMap((e) =>
    e.diagnosticEvent && (severity === undefined || e.diagnosticEvent.severity === severity)
      ? [e.diagnosticEvent]
      : [],
  );
}

/**
 * The closing summary of an operation (counts of creates/updates/…), if the engine got that far.
 * @example
 * summary(result.events)?.resourceChanges.create; // 2
 */
export function summary(events: readonly EngineEvent[]): SummaryEvent | undefined {
  return events.findLast((e) => e.summaryEvent !== undefined)?.summaryEvent;
}

/**
 * Names of the policy packs that ran during an operation, from its summary. The CLI writes this map as
 * `PolicyPacks` (see the SummaryEvent type's note) with keys like `name|local|/path`: both are handled.
 * @example
 * expect(policyPacksRun(result.events)).toEqual(["irv-smoke-policy"]);
 */
export function policyPacksRun(events: readonly EngineEvent[]): string[] {
  const s = summary(events) as (SummaryEvent & { PolicyPacks?: Record<string, string> }) | undefined;
  const packs = s?.policyPacks ?? s?.PolicyPacks ?? {};
  return Object.keys(packs).map((key) => key.split("|")[0] ?? key);
}
