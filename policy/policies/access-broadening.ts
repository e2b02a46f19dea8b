import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { PolicyResource, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import type { Approval, KnownRole, RiskClass, StackResource } from "pulumi-irv/review";
import {
  ApprovalsFile,
  approvalHint,
  deprecations,
  orgModelOf,
  PREVIEW_UNKNOWN,
  parseApprovals,
  RISK_CLASSES,
  reviewAccess,
  uidIndexOf,
  unapprovedChanges,
} from "pulumi-irv/review";
import type { EngineContext } from "./engine-context.js";
import { engineContext, exportStack, stackOfUrn } from "./engine-context.js";
import { liveAccessOfStack, rolesOfStack } from "./stack-api.js";

/**
 * Configuration of {@link accessBroadening}.
 *
 * @example
 * // policy-config.json
 * // { "access-broadening": { "approvalsFile": "/repo/access-approvals.yaml", "roles": [...], "before": "/tmp/state.json" } }
 */
export interface AccessBroadeningConfig {
  /**
   * `access-approvals.yaml` (absolute, or relative to the directory pulumi runs in). Default: the
   * one in the project directory, when it exists.
   */
  approvalsFile?: string;
  /** Approvals given inline, in the file's entry format. */
  approvals?: Approval[];
  /**
   * Roles outside the stack with their capabilities (the built-ins at least), as the API lists them.
   * Default (neither this nor `rolesFile`): read from the API with the stack's own settings.
   */
  roles?: KnownRole[];
  /** A JSON file of such roles (what `pulumi-irv access-review --gate-inputs DIR` writes as `roles.json`). */
  rolesFile?: string;
  /**
   * The stack's state before the change (`pulumi stack export` output). Default: the policy exports
   * the stack itself through the `pulumi` command running it; when it cannot, findings are advisory.
   */
  before?: string;
  /**
   * `true`: also read the bindings outside the stack where its resources are, with the stack's own
   * settings (`pulumi-irv access-review --live`'s read), so a new binding granting what one made
   * elsewhere already grants is no gain — the gate then judges as the `--live` comment shows. Default
   * false (`IRV_ACCESS_LIVE=true` sets it).
   */
  live?: boolean;
  /** `risky` (default): risky gains; `any`: every gain. */
  failOn?: "risky" | "any";
  /** The risk classes that gate (default: all). */
  riskClasses?: RiskClass[];
}

// The policy runner's props throw when a value is not known at preview: copy them with the engine's
// unknown marker in such places, as the CLI sees them.
function snapshot(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => snapshot(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    try {
      out[key] = snapshot((value as Record<string, unknown>)[key], depth + 1);
    } catch {
      out[key] = PREVIEW_UNKNOWN;
    }
  }
  return out;
}

const stackResourceOf = (r: PolicyResource): StackResource => ({
  urn: r.urn,
  type: r.type,
  props: snapshot(r.props) as Record<string, unknown>,
  propertyDependencies: Object.fromEntries(
    Object.entries(r.propertyDependencies ?? {}).map(([k, deps]) => [k, deps.map((d) => d.urn)]),
  ),
});

type Deployment = {
  deployment?: {
    resources?: { urn: string; type: string; id?: string; inputs?: object; outputs?: object }[];
  };
};

const resourcesOf = (doc: Deployment): StackResource[] =>
  (doc.deployment?.resources ?? []).map((r) => ({
    urn: r.urn,
    type: r.type,
    id: r.id,
    props: { ...r.inputs, ...r.outputs },
  }));

// CI knows its paths only at run time (the workspace, a temp dir): the environment may give the
// files the config leaves out. An empty variable counts as unset.
const fromEnv = (name: string): string | undefined => process.env[name] || undefined;

// The roles: those configured, else the organization's read from the API with the stack's settings
// (a new binding's role is known to the preview only by uid); or why they could not be read.
async function rolesFor(
  config: AccessBroadeningConfig,
  rolesFile: string | undefined,
  ctx: EngineContext,
  urn: string | undefined,
): Promise<{ roles: KnownRole[]; missing?: string }> {
  const configured = [
    ...(config.roles ?? []),
    ...(rolesFile === undefined ? [] : (JSON.parse(readFileSync(rolesFile, "utf8")) as KnownRole[])),
  ];
  if (configured.length > 0 || rolesFile !== undefined) return { roles: configured };
  const at = urn === undefined ? undefined : stackOfUrn(urn);
  if (at === undefined) return { roles: [], missing: "no resource names the stack" };
  try {
    return { roles: await rolesOfStack(ctx, at.stack) };
  } catch (err) {
    return { roles: [], missing: err instanceof Error ? err.message : String(err) };
  }
}

// The bindings outside the stack (`live`), or why they could not be read.
async function liveFor(
  ctx: EngineContext,
  urn: string | undefined,
  resources: StackResource[],
): Promise<{ resources: StackResource[] } | { missing: string }> {
  const at = urn === undefined ? undefined : stackOfUrn(urn);
  if (at === undefined) return { missing: "no resource names the stack" };
  try {
    return { resources: (await liveAccessOfStack(ctx, at.stack, resources)).resources };
  } catch (err) {
    return { missing: err instanceof Error ? err.message : String(err) };
  }
}

// The state before the change: the `before` file, else the stack's own state read through the CLI
// running the pack; or why neither could be had.
async function stateBefore(
  file: string | undefined,
  ctx: EngineContext,
  urn: string | undefined,
): Promise<{ resources: StackResource[] } | { missing: string }> {
  if (file !== undefined)
    return { resources: resourcesOf(JSON.parse(readFileSync(file, "utf8")) as Deployment) };
  const at = urn === undefined ? undefined : stackOfUrn(urn);
  if (at === undefined) return { missing: "no resource names the stack" };
  try {
    return { resources: resourcesOf((await exportStack(ctx, at.stack)) as Deployment) };
  } catch (err) {
    return { missing: err instanceof Error ? err.message : String(err) };
  }
}

/** What the advisory twin reports: set by `access-broadening` when it could not judge. */
let advisoryNotes: string[] = [];

/**
 * `access-broadening` (mandatory): the change must not give any identity risky access —
 * owner-equivalent, escalation-capable, at the root, through a broad matcher, to a new identity —
 * nor leave the root without an owner-equivalent binding (lock-out), unless `access-approvals.yaml`
 * approves the row (its id, or its grant: identity, group and role). Only what the change gains
 * counts: the state before is the `before` file when given, else the stack's own state, read with
 * the `pulumi` command running the pack (`pulumi stack export`, so any backend works). When neither
 * can be had, nothing here blocks: {@link accessBroadeningAdvisory} reports the findings as
 * advisory with one line saying how to give `before`. Roles the stack does not manage: `roles` and
 * `rolesFile`, else read from the API with the stack's own settings (its `irv:*` config through the
 * same `pulumi`, then `IRV_*`), as `pulumi-irv access-review` reads them. Approvals: `approvalsFile`, else
 * `IRV_ACCESS_APPROVALS_FILE`, else `access-approvals.yaml` in the project directory (where the CLI
 * looks too); relative paths are read from the directory pulumi runs in. For a shadow roll-out set
 * its `enforcementLevel` to `advisory`. Both type token families are read
 * (`pulumi-nodejs:dynamic/irv:*` and `irv:iam:*`).
 *
 * @example
 * new PolicyPack("irv", { policies: [accessBroadening, accessBroadeningAdvisory] });
 */
export const accessBroadening: StackValidationPolicy = {
  name: "access-broadening",
  description:
    "No identity gains risky access (owner-equivalent, escalation, root, broad matcher, new identity) and the root keeps an owner, unless access-approvals.yaml approves the grant.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      approvalsFile: { type: "string" },
      approvals: { type: "array" },
      roles: { type: "array", default: [] },
      rolesFile: { type: "string" },
      before: { type: "string" },
      live: { type: "boolean" },
      failOn: { type: "string", enum: ["risky", "any"], default: "risky" },
      riskClasses: { type: "array", items: { type: "string", enum: [...RISK_CLASSES] } },
    },
  },
  validateStack: async (args: StackValidationArgs, reportViolation) => {
    advisoryNotes = [];
    const config = args.getConfig<AccessBroadeningConfig>();
    const ctx = engineContext();
    const base = ctx.cwd ?? process.cwd();
    const within = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
    const beforeFile = config.before ?? fromEnv("IRV_ACCESS_BEFORE_FILE");
    const rolesFile = config.rolesFile ?? fromEnv("IRV_ACCESS_ROLES_FILE");
    const namedApprovals = config.approvalsFile ?? fromEnv("IRV_ACCESS_APPROVALS_FILE");
    const defaultApprovals =
      ctx.projectDir === undefined ? undefined : join(ctx.projectDir, "access-approvals.yaml");
    const approvalsFile =
      namedApprovals !== undefined
        ? within(namedApprovals)
        : defaultApprovals !== undefined && existsSync(defaultApprovals)
          ? defaultApprovals
          : undefined;
    const after = args.resources.map(stackResourceOf);
    // Two reads through the CLI (the state; the config, then the roles): side by side.
    const [before, { roles, missing: rolesMissing }] = await Promise.all([
      stateBefore(beforeFile === undefined ? undefined : within(beforeFile), ctx, args.resources[0]?.urn),
      rolesFor(config, rolesFile === undefined ? undefined : within(rolesFile), ctx, args.resources[0]?.urn),
    ]);
    const beforeResources = "resources" in before ? before.resources : [];
    const live =
      (config.live ?? fromEnv("IRV_ACCESS_LIVE") === "true")
        ? await liveFor(ctx, args.resources[0]?.urn, [...beforeResources, ...after])
        : undefined;
    const outside = live !== undefined && "resources" in live ? live.resources : [];
    const uidIndex = uidIndexOf([...beforeResources, ...after, ...outside]);
    const review = reviewAccess(
      orgModelOf([...beforeResources, ...outside], { roles, uidIndex }),
      orgModelOf([...after, ...outside], { roles, uidIndex }),
    );
    const classes = new Set(config.riskClasses ?? RISK_CLASSES);
    const gated = {
      ...review,
      lockOut: classes.has("lock-out") ? review.lockOut : undefined,
      rows: review.rows.map((r) => ({ ...r, risks: r.risks.filter((c) => classes.has(c)) })),
    };
    const fileApprovals =
      approvalsFile === undefined ? [] : parseApprovals(readFileSync(approvalsFile, "utf8"), approvalsFile);
    const approvals = [
      ...ApprovalsFile.parse({ approvals: config.approvals ?? [] }).approvals,
      ...fileApprovals,
    ];
    const unapproved = unapprovedChanges(gated, approvals, {
      failOn: config.failOn ?? "risky",
      now: new Date(),
    });
    const where =
      approvalsFile ??
      (defaultApprovals === undefined
        ? "access-approvals.yaml (none read: set approvalsFile in the policy config)"
        : `${defaultApprovals} (not there yet)`);
    const messages = unapproved.map(
      (u) =>
        `${u.what}: not approved (row ${u.row}${u.expired.length > 0 ? `; approvals expired ${u.expired.join(", ")}` : ""}). Narrow the change, or approve it in ${where}: ${approvalHint(u)}`,
    );
    advisoryNotes = deprecations(fileApprovals, approvalsFile);
    if (live !== undefined && "missing" in live && messages.length > 0)
      advisoryNotes.push(
        `access-broadening could not read the bindings outside the stack (live: ${live.missing}), so it judged without them: a new binding granting what another already grants counts as a gain. The caller needs role_bindings.list on the stack's groups and those above.`,
      );
    if (rolesMissing !== undefined && messages.length > 0)
      advisoryNotes.push(
        `access-broadening could not read the organization's roles from the API (${rolesMissing}), so a role the stack does not manage is known only by name on existing bindings and a new binding to it may grant anything: give the roles with \`pulumi-irv access-review --gate-inputs DIR\` and \`rolesFile\` in the policy config (or IRV_ACCESS_ROLES_FILE).`,
      );
    if ("missing" in before) {
      if (messages.length > 0)
        advisoryNotes.push(
          `access-broadening could not read the stack's state before this change (${before.missing}), so its findings are advisory: give it the state with \`pulumi stack export > before.json\` and \`before\` in the policy config (or IRV_ACCESS_BEFORE_FILE).`,
          ...messages,
        );
      return;
    }
    for (const m of messages) reportViolation(m);
  },
};

/**
 * `access-broadening-advisory` (advisory): what `access-broadening` could not judge (no state
 * before the change: each finding, after one line saying how to give `before`) and notes on the
 * approvals file (deprecated entries). It reports what `access-broadening` found in the same run,
 * so it comes after it in the pack.
 *
 * @example
 * new PolicyPack("irv", { policies: [accessBroadening, accessBroadeningAdvisory] });
 */
export const accessBroadeningAdvisory: StackValidationPolicy = {
  name: "access-broadening-advisory",
  description:
    "What access-broadening could not judge without the stack's state before the change, and notes on access-approvals.yaml.",
  enforcementLevel: "advisory",
  validateStack: (_args: StackValidationArgs, reportViolation) => {
    const notes = advisoryNotes;
    advisoryNotes = [];
    for (const n of notes) reportViolation(n);
  },
};
