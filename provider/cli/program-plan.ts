import type { Role } from "../../sdk/index.js";
import { moduleOf } from "../plugin/index.js";
import { isStubType } from "../stub/index.js";
import { logicalNames, variableName } from "./logical-names.js";
import type { Arg, OrgObject } from "./org-kinds.js";
import { REPO_README_NOT_GENERATED } from "./org-kinds.js";

/**
 * Where a class of the kind table lives in the package: `<module>.<class>` (`iam.Group`,
 * `registry.PullToken`), the TypeScript namespace path and the middle of the native token alike.
 *
 * @example
 * classPath("PullToken"); // "registry.PullToken"
 */
export function classPath(className: string): string {
  if (!isStubType(className)) throw new Error(`pulumi-irv: no resource type ${className}`);
  return `${moduleOf(className)}.${className}`;
}

/**
 * What a program renderer needs: the root, the objects in declaration order, the roles they may
 * refer to, and the versions a generated package.json asks for.
 *
 * @example
 * renderProgram({ rootUid, objects, roles, project: "irv-org", kinds, versions: { pulumiIrv: "0.1.0", pulumi: "3.270.0" } });
 */
export interface ProgramInput {
  rootUid: string;
  objects: readonly OrgObject[];
  /** Every role the caller sees; custom ones carry the group they are defined in. */
  roles: readonly (Role & { parentUid?: string | undefined })[];
  project: string;
  versions: { pulumiIrv: string; pulumi: string };
  kinds: readonly string[];
}

/**
 * A built-in role the program refers to: looked up by name, or by its uid when a custom role the
 * caller sees has the same name (the lookup would find two).
 *
 * @example
 * const r: BuiltInRoleRef = { uid: "…", name: "viewer", variable: "viewerRole", byName: true };
 */
export interface BuiltInRoleRef {
  uid: string;
  name: string;
  variable: string;
  byName: boolean;
}

/**
 * A walk over an argument for one language: how to write a literal, a list, an object, a
 * reference to a variable's uid (the root is the variable `rootUid` itself) and a secret config
 * value.
 *
 * @example
 * const yaml: ArgSyntax<unknown> = { literal: (v) => v, list: (xs) => xs, object: (f) => Object.fromEntries(f), ref: (v) => `\${${v}}`, secret: (k) => `\${${k}}` };
 */
export interface ArgSyntax<T> {
  literal(value: string | number | boolean): T;
  list(items: T[]): T;
  object(fields: [string, T][]): T;
  /** `variable` is `rootUid` for the root, else a resource or role variable (its `.uid` is meant). */
  ref(variable: string): T;
  secret(configKey: string): T;
}

/**
 * The language-independent part of a generated program: objects and their logical names and
 * variables, the built-in roles referred to, and, as arguments are rendered, the secret config
 * entries and the uids no variable holds.
 *
 * @example
 * const plan = new ProgramPlan(input);
 * const args = plan.args(object, syntax);
 */
export class ProgramPlan {
  readonly objects: OrgObject[];
  readonly skipped: OrgObject[];
  readonly names: Map<OrgObject, string>;
  readonly objectVars = new Map<OrgObject, string>();
  readonly roles: BuiltInRoleRef[] = [];
  /** Config key → what it is, for the README. */
  readonly secrets = new Map<string, string>();
  readonly unresolved = new Set<string>();
  readonly #vars: Map<string, string>;

  constructor(readonly input: ProgramInput) {
    this.skipped = input.objects.filter((o) => o.unsupported !== undefined);
    this.objects = declarationOrder(input.objects.filter((o) => o.unsupported === undefined));
    this.names = logicalNames(this.objects);
    this.#vars = new Map([[input.rootUid, "rootUid"]]);
    const used = new Set(["rootUid"]);
    const unique = (v: string) => {
      let name = v;
      for (let i = 2; used.has(name); i++) name = `${v}${i}`;
      used.add(name);
      return name;
    };
    const refUids = new Set(this.objects.flatMap((o) => Object.values(o.args).flatMap(refsOf)));
    for (const role of [...input.roles].sort(
      (a, b) => a.name.localeCompare(b.name) || a.uid.localeCompare(b.uid),
    ))
      if (refUids.has(role.uid) && !role.parentUid) {
        const variable = unique(
          variableName(`${role.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-role`, "Role"),
        );
        this.#vars.set(role.uid, variable);
        // getRole by name fails when a custom role visible to the caller has the same name.
        const byName = input.roles.filter((r) => r.name === role.name).length === 1;
        this.roles.push({ uid: role.uid, name: role.name, variable, byName });
      }
    // One variable per object; refs name a uid, and a uid shared by a group and its account
    // association (published: the association's uid is the group's) refers to the group, declared first.
    for (const o of this.objects) {
      const v = unique(variableName(this.names.get(o) as string, o.className));
      this.objectVars.set(o, v);
      if (!this.#vars.has(o.uid)) this.#vars.set(o.uid, v);
    }
  }

  /** An object's arguments in one language's syntax, in their order. */
  args<T>(owner: OrgObject, syntax: ArgSyntax<T>): [string, T][] {
    const render = (arg: Arg): T => {
      if (typeof arg !== "object") return syntax.literal(arg);
      if (isList(arg)) return syntax.list(arg.map(render));
      if ("ref" in arg) {
        const v = this.#vars.get(arg.ref);
        if (v !== undefined) return syntax.ref(v);
        this.unresolved.add(arg.ref);
        return syntax.literal(arg.ref);
      }
      if ("secret" in arg) {
        const key = `${this.objectVars.get(owner)}${arg.secret[0]?.toUpperCase()}${arg.secret.slice(1)}`;
        this.secrets.set(
          key,
          `the ${arg.secret} of \`irv.${classPath(owner.className)}\` "${this.names.get(owner)}" (\`${owner.uid}\`)`,
        );
        return syntax.secret(key);
      }
      return syntax.object(Object.entries(arg.fields).map(([k, v]) => [k, render(v)]));
    };
    return Object.entries(owner.args).map(([k, a]) => [k, render(a)]);
  }

  /**
   * The README of the generated project (call it after rendering every object's arguments, which
   * records the secrets and the unresolved uids).
   */
  readme(language: {
    file: string;
    resource: (className: string) => string;
    lookup: string;
    setup: string[];
  }): string {
    const { input, skipped, secrets, unresolved } = this;
    const counts = new Map<string, number>();
    for (const o of this.objects) counts.set(o.className, (counts.get(o.className) ?? 0) + 1);
    return [
      `# ${input.project}`,
      "",
      `Generated by \`pulumi-irv import-org --root ${input.rootUid}\` (kinds: ${input.kinds.join(", ")}).`,
      "",
      "| Resource | Count |",
      "|---|---|",
      ...[...counts].map(([c, n]) => `| \`${language.resource(c)}\` | ${n} |`),
      "",
      "The root group itself is not managed: the program refers to it as `rootUid`. Built-in roles are",
      `looked up with ${language.lookup}.`,
      "",
      ...(counts.has("Repo") ? [REPO_README_NOT_GENERATED, ""] : []),
      "## Adopting",
      "",
      "```sh",
      ...language.setup,
      "pulumi stack init",
      "pulumi config set irv:baseUrl <API base URL>",
      "pulumi config set --secret irv:token <token>   # or irv:identity for workload identity",
      ...[...secrets.keys()].map((k) => `pulumi config set --secret ${input.project}:${k} <value>`),
      "pulumi up      # imports every resource: no API write",
      "pulumi preview # no changes",
      "```",
      "",
      ...(secrets.size > 0
        ? [
            "## Write-only fields",
            "",
            "The API never returns these values; set each as a secret before the first `up`:",
            "",
            ...[...secrets].map(([k, what]) => `- \`${k}\`: ${what}`),
            "",
          ]
        : []),
      "## Not generated",
      "",
      ...(skipped.length > 0
        ? [`These objects are not in ${language.file}, and why:`, "", ...notGenerated(skipped)]
        : []),
      ...(unresolved.size > 0
        ? [
            "These uids are referred to but lie outside the subtree or the kinds generated (custom roles,",
            "identities of ancestor groups, objects listed above); the program uses them as literal strings:",
            "",
            ...[...unresolved].sort().map((u) => `- \`${u}\``),
          ]
        : skipped.length > 0
          ? []
          : ["Nothing: every reference resolved to a generated resource, the root or a built-in role."]),
      "",
    ].join("\n");
  }
}

// Each object after the generated objects it refers to, else in the order given: a variable is
// declared before its first use (a repo that syncs from another repo of the organization comes after
// it, whatever their uids). The kinds are listed so that this only moves such objects.
function declarationOrder(objects: readonly OrgObject[]): OrgObject[] {
  // A uid shared by a group and its account association is the group's, listed first.
  const byUid = new Map<string, OrgObject>();
  for (const o of objects) if (!byUid.has(o.uid)) byUid.set(o.uid, o);
  const ordered: OrgObject[] = [];
  const seen = new Set<OrgObject>();
  const visit = (o: OrgObject) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const uid of Object.values(o.args).flatMap(refsOf)) {
      const target = byUid.get(uid);
      if (target !== undefined) visit(target);
    }
    ordered.push(o);
  };
  for (const o of objects) visit(o);
  return ordered;
}

// Array.isArray does not narrow a readonly array type.
const isList = (arg: Arg): arg is readonly Arg[] => Array.isArray(arg);

// One heading per class and reason, then its objects' uids: the reason is said once.
function notGenerated(skipped: readonly OrgObject[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const o of skipped) {
    const key = `\`irv.${classPath(o.className)}\`: ${o.unsupported}`;
    byReason.set(key, [...(byReason.get(key) ?? []), o.uid]);
  }
  return [...byReason].flatMap(([reason, uids]) => [`${reason}.`, "", ...uids.map((u) => `- \`${u}\``), ""]);
}

function refsOf(arg: Arg): string[] {
  if (typeof arg !== "object" || "secret" in arg) return [];
  if (isList(arg)) return arg.flatMap(refsOf);
  if ("ref" in arg) return [arg.ref];
  return Object.values(arg.fields).flatMap(refsOf);
}
