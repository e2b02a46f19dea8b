import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { PolicyResource, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import type { Approval, KnownRole, RiskClass, StackResource } from "pulumi-irv/sdk";
import {
  ApprovalsFile,
  orgModelOf,
  PREVIEW_UNKNOWN,
  parseApprovals,
  RISK_CLASSES,
  reviewAccess,
  uidIndexOf,
  unapprovedChanges,
} from "pulumi-irv/sdk";

/**
 * Configuration of {@link accessBroadening}.
 *
 * @example
 * // policy-config.json
 * // { "access-broadening": { "approvalsFile": "/repo/access-approvals.yaml", "roles": [...], "before": "/tmp/state.json" } }
 */
export interface AccessBroadeningConfig {
  /** `access-approvals.yaml` (absolute, or relative to the directory pulumi runs in). */
  approvalsFile?: string;
  /** Approvals given inline, in the file's entry format. */
  approvals?: Approval[];
  /** Roles outside the stack with their capabilities (the built-ins at least), as the API lists them. */
  roles?: KnownRole[];
  /** A JSON file of such roles (what `pulumi-irv access-review --gate-inputs DIR` writes as `roles.json`). */
  rolesFile?: string;
  /**
   * The stack's state before the change (`pulumi stack export` output). Without it, every risky
   * access of the planned state needs an approval (the gate is then an allow-list).
   */
  before?: string;
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

function stateBefore(path: string): StackResource[] {
  const doc = JSON.parse(readFileSync(path, "utf8")) as {
    deployment?: {
      resources?: { urn: string; type: string; id?: string; inputs?: object; outputs?: object }[];
    };
  };
  return (doc.deployment?.resources ?? []).map((r) => ({
    urn: r.urn,
    type: r.type,
    id: r.id,
    props: { ...r.inputs, ...r.outputs },
  }));
}

const within = (path: string) => (isAbsolute(path) ? path : resolve(process.cwd(), path));

// CI knows its paths only at run time (the workspace, a temp dir): the environment may give the
// files the config leaves out. An empty variable counts as unset.
const fromEnv = (name: string): string | undefined => process.env[name] || undefined;

/**
 * `access-broadening` (mandatory): the planned state must not give any identity risky access —
 * owner-equivalent, escalation-capable, at the root, through a broad matcher, to a new identity —
 * nor leave the root without an owner-equivalent binding (lock-out), unless `access-approvals.yaml`
 * names the finding (its stable id), who approved it and until when. With `before` (the exported
 * state) only gains count; without it, every risky access present after the change does. The
 * files may also come from `IRV_ACCESS_BEFORE_FILE`, `IRV_ACCESS_ROLES_FILE` and
 * `IRV_ACCESS_APPROVALS_FILE`. For a shadow (advisory) roll-out set its `enforcementLevel` to
 * `advisory` in the pack config. Both type token families are read (`pulumi-nodejs:dynamic/irv:*`
 * and `irv:iam:*`).
 *
 * @example
 * new PolicyPack("irv", { policies: [accessBroadening] });
 */
export const accessBroadening: StackValidationPolicy = {
  name: "access-broadening",
  description:
    "No identity gains risky access (owner-equivalent, escalation, root, broad matcher, new identity) and the root keeps an owner, unless access-approvals.yaml approves the finding.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      approvalsFile: { type: "string" },
      approvals: { type: "array" },
      roles: { type: "array", default: [] },
      rolesFile: { type: "string" },
      before: { type: "string" },
      failOn: { type: "string", enum: ["risky", "any"], default: "risky" },
      riskClasses: { type: "array", items: { type: "string", enum: [...RISK_CLASSES] } },
    },
  },
  validateStack: (args: StackValidationArgs, reportViolation) => {
    const config = args.getConfig<AccessBroadeningConfig>();
    const beforeFile = config.before ?? fromEnv("IRV_ACCESS_BEFORE_FILE");
    const rolesFile = config.rolesFile ?? fromEnv("IRV_ACCESS_ROLES_FILE");
    const approvalsFile = config.approvalsFile ?? fromEnv("IRV_ACCESS_APPROVALS_FILE");
    const after = args.resources.map(stackResourceOf);
    const before = beforeFile === undefined ? [] : stateBefore(within(beforeFile));
    const roles = [
      ...(config.roles ?? []),
      ...(rolesFile === undefined
        ? []
        : (JSON.parse(readFileSync(within(rolesFile), "utf8")) as KnownRole[])),
    ];
    const uidIndex = uidIndexOf([...before, ...after]);
    const review = reviewAccess(
      orgModelOf(before, { roles, uidIndex }),
      orgModelOf(after, { roles, uidIndex }),
    );
    const classes = new Set(config.riskClasses ?? RISK_CLASSES);
    const gated = {
      ...review,
      lockOut: classes.has("lock-out") ? review.lockOut : undefined,
      rows: review.rows.map((r) => ({ ...r, risks: r.risks.filter((c) => classes.has(c)) })),
    };
    const approvals = [
      ...ApprovalsFile.parse({ approvals: config.approvals ?? [] }).approvals,
      ...(approvalsFile === undefined
        ? []
        : parseApprovals(readFileSync(within(approvalsFile), "utf8"), approvalsFile)),
    ];
    const unapproved = unapprovedChanges(gated, approvals, {
      failOn: config.failOn ?? "risky",
      now: new Date(),
    });
    for (const u of unapproved)
      reportViolation(
        `${u.what}: not approved (findings ${u.ids.join(" ")}${u.expired.length > 0 ? `; approvals expired ${u.expired.join(", ")}` : ""}). Narrow the change, or add the ids to access-approvals.yaml with approvedBy and until.`,
      );
  },
};
