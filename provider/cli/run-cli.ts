import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { CliError } from "./cli-error.js";

// Each command loads its own modules when it runs (`await import`): `--help`, `--version` and a
// usage error load none of them (the Automation API alone took a second of CPU), and a command
// loads only what it needs.

const USAGE = `Usage: pulumi-irv <command> [flags]
       pulumi-irv --version

Commands:
  recover      repair a stack after an interrupted (killed) pulumi up
  import-org   generate a Pulumi program that adopts an existing organization
  access-review  who gains or loses which capability where, if the stack's preview is applied
  drift        what changed in the organization outside code, and the access it changes

Run "pulumi-irv <command> --help" for its flags.`;

const RECOVER_HELP = `Usage: pulumi-irv recover [--stack NAME] [--cwd DIR] [--apply] [--since TIME]

Repairs a stack after an interrupted pulumi up: for each pending create of the state, asks the
service whether it made the resource (by parent, name and the declared fields; a role binding by
group, identity and role; a group invite by group, role, email and single use; an identity
provider without its client secret), adopts those into the state and drops the rest, then prints
what it adopted and what pulumi up will still create. Every resource kind of pulumi-irv is known.
Also cancels the stale lock of a self-managed backend and deletes a broken (empty or unparsable)
.attrs file of a file backend (a kill or a torn write while it was written; deleted even in a dry
run, since no command can read the stack while it is there). Refuses, naming the resource, when a
match is ambiguous: a resource of the same name created before the interrupted run began (on the
service's clock, whose offset from ours is measured from the Date header of its answers), or one
whose fields differ. Uses the
pulumi CLI on PATH; credentials come from the stack's irv:* config, then the IRV_* environment
variables.

Flags:
  --stack NAME   the stack to repair (default: the selected stack of the project)
  --cwd DIR      the Pulumi project directory (default: the current directory)
  --apply        write the repaired state (default: a dry run that writes nothing)
  --since TIME   when the interrupted run began, RFC 3339 (default: the stale lock's time on a file
                 backend, else the end of the stack's last update)
  -h, --help     show this help`;

// The kinds --kinds takes come from the kind table, which loads the resource kinds: this help is
// written when it is asked for.
const importOrgHelp = (
  kinds: readonly string[],
) => `Usage: pulumi-irv import-org --root UID [--out DIR] [--kinds LIST] [--project NAME] [--format F]
                               [--language typescript|yaml]

Reads the subtree of group UID (every kind, every page, pages fetched concurrently) and writes a
TypeScript Pulumi project that adopts it: Pulumi.yaml, package.json, tsconfig.json, index.ts (one
resource per object, each with its import option; references between resources as variables;
built-in roles through getRole) and a README.md of what was generated and what was not. The root
itself is not managed: the program refers to it as the constant rootUid. Write-only fields (an
identity provider's oidc.clientSecret) become config.requireSecret entries the README lists, to
set before the first pulumi up. Group invites are listed in the README, not generated: an invite's
code is returned by its create only, and every change to an invite replaces it. Re-running on an
unchanged organization writes byte-identical files. Progress goes to stderr. A root that does not
exist or that the caller may not read exits 1 naming its uid, writing nothing. Credentials and the
API: IRV_BASE_URL, IRV_TOKEN (or IRV_IDENTITY with a workload token, as for the provider).

Flags:
  --root UID       uid of the group whose subtree is adopted (required)
  --out DIR        where to write the project (default: the current directory)
  --kinds LIST     comma list of kinds to include (default: all):
                   ${kinds.join(", ")}
  --project NAME   name in Pulumi.yaml and package.json, and the namespace of the secret config
                   entries (default: irv-org)
  --format FORMAT  typescript (default: the project above) or pulumi-import: only import.json,
                   Pulumi's bulk import file for the native plugin (irv:<module>:* tokens, uids as ids);
                   in a project of any language, \`pulumi import --file import.json\` adopts the
                   objects and writes their code (identity providers are left out: their client
                   secret is write-only)
  --language LANG  typescript (default) or yaml: a Pulumi YAML program on the native plugin
                   (irv:<module>:* tokens, the import option on every resource; see README.md there)
  -h, --help       show this help`;

const ACCESS_REVIEW_HELP = `Usage: pulumi-irv access-review [--stack NAME] [--cwd DIR] [--plan FILE]
                             [--format markdown|json|text] [--fail-on risky|any] [--approvals FILE]
                             [--gate-inputs DIR] [--max-chars N] [--live]

Previews the stack (pulumi preview --json) and compares every identity's effective capabilities
per group subtree before (the stack's state) and after (the planned state): a binding applies to
its group and every descendant, a role is a set of capabilities (roles outside the stack are read
from the API). One row per change: identity, subtree, capabilities gained or lost, and why
(binding -> role -> group); values unknown at preview are resolved through property dependencies,
what stays unknown is "maybe" (and counts as gained for --fail-on). Risk classes: lock-out,
owner-equivalent, escalation, root, broad-matcher, new-identity. Credentials and the API: the
stack's irv:* config, then IRV_BASE_URL, IRV_TOKEN (or IRV_IDENTITY with a workload token).

Flags:
  --stack NAME       the stack (default: the selected stack of the project)
  --cwd DIR          the Pulumi project directory (default: the current directory)
  --plan FILE        read the output of "pulumi preview --json" from FILE instead of previewing
  --format FORMAT    markdown (one pull-request comment), json (versioned) or text (default)
  --fail-on WHAT     exit 1 when a risky gain (risky) or any gain (any) is not approved
  --approvals FILE   approvals (default: access-approvals.yaml in --cwd, when present)
  --gate-inputs DIR  also write DIR/before.json (the stack's state) and DIR/roles.json (the roles
                     read from the API) for the access-broadening policy
                     (IRV_ACCESS_BEFORE_FILE, IRV_ACCESS_ROLES_FILE)
  --max-chars N      size cap of the markdown comment (default 60000)
  --live             also read, with the stack's credentials, every binding in the subtrees the
                     stack touches (and the groups above): access from outside the stack is shown
                     and counted (a new binding granting nothing new is no gain)
  -h, --help         show this help`;

const DRIFT_HELP = `Usage: pulumi-irv drift [--stack NAME] [--cwd DIR] [--format text|markdown|json]
                     [--fail-on none|any|risky]

Reads the stack's state (pulumi stack export, as stored) and, with the stack's credentials, the
organization where the stack has objects: every object below each group the stack manages, and
the groups of its other objects, by lists (pages of 200). Reports each managed object changed
outside code (field by field, as a refresh would see it), each managed object deleted outside
code, and each group, identity, binding, identity provider, pull token or invite below a managed
group that the stack does not manage ("unmanaged"). For each, the access it changes, in the access
review's terms: who gained or lost which capability where, with its risk classes (lock-out,
owner-equivalent, escalation, root, broad-matcher, new-identity). Writes no state and takes no
lock. Credentials and the API: the stack's irv:* config, then IRV_BASE_URL, IRV_TOKEN (or
IRV_IDENTITY with a workload token).

Flags:
  --stack NAME     the stack (default: the selected stack of the project)
  --cwd DIR        the Pulumi project directory (default: the current directory)
  --format FORMAT  text (default), markdown (one issue body) or json (versioned)
  --fail-on WHAT   exit 1 when anything is found (any) or a finding gains risky access (risky);
                   none (default): exit 0 whatever is found. Exit 2 on an error.
  -h, --help       show this help`;

type Print = (line: string) => void;

/**
 * Runs the \`pulumi-irv\` command with \`argv\` (without node and the script); returns the exit code.
 * Usage errors exit 2, refusals and API failures 1, each printed as one clear message.
 *
 * @example
 * process.exitCode = await runCli(["recover", "--stack", "dev"]);
 */
export async function runCli(
  argv: readonly string[],
  io: { out: Print; err: Print } = {
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
  },
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "recover": {
        const { values } = parse(rest, {
          stack: { type: "string" },
          cwd: { type: "string" },
          apply: { type: "boolean" },
          since: { type: "string" },
          help: { type: "boolean", short: "h" },
        });
        if (values.help === true) return done(io.out, RECOVER_HELP);
        const { recover } = await import("./recover.js");
        const since = values.since === undefined ? undefined : new Date(String(values.since));
        if (since !== undefined && Number.isNaN(since.getTime()))
          throw new CliError(`--since must be an RFC 3339 time, got ${JSON.stringify(values.since)}`, 2);
        await recover({
          stack: str(values.stack),
          cwd: str(values.cwd),
          apply: values.apply === true,
          since,
          print: io.out,
        });
        return 0;
      }
      case "import-org": {
        const { values } = parse(rest, {
          root: { type: "string" },
          out: { type: "string" },
          kinds: { type: "string" },
          project: { type: "string" },
          format: { type: "string" },
          language: { type: "string" },
          help: { type: "boolean", short: "h" },
        });
        if (values.help === true) {
          const { ORG_KINDS } = await import("./org-kinds.js");
          return done(io.out, importOrgHelp(ORG_KINDS.map((k) => k.kind)));
        }
        const root = str(values.root);
        if (root === undefined) throw new CliError("--root is required: the uid of the group to adopt", 2);
        const format = str(values.format);
        if (format !== undefined && format !== "typescript" && format !== "pulumi-import")
          throw new CliError(
            `--format must be typescript or pulumi-import, got ${JSON.stringify(format)}`,
            2,
          );
        const language = str(values.language);
        if (language !== undefined && language !== "typescript" && language !== "yaml")
          throw new CliError(`--language must be typescript or yaml, got ${JSON.stringify(language)}`, 2);
        const kinds = str(values.kinds)
          ?.split(",")
          .map((k) => k.trim());
        const { importOrg } = await import("./import-org.js");
        await importOrg({
          root,
          out: str(values.out),
          kinds,
          project: str(values.project),
          format,
          language,
          progress: io.err,
        });
        return 0;
      }
      case "access-review": {
        const { values } = parse(rest, {
          stack: { type: "string" },
          cwd: { type: "string" },
          plan: { type: "string" },
          format: { type: "string" },
          "fail-on": { type: "string" },
          approvals: { type: "string" },
          "gate-inputs": { type: "string" },
          "max-chars": { type: "string" },
          live: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        });
        if (values.help === true) return done(io.out, ACCESS_REVIEW_HELP);
        const format = oneOf(values.format, "--format", ["markdown", "json", "text"] as const);
        const failOn = oneOf(values["fail-on"], "--fail-on", ["risky", "any"] as const);
        const maxChars = str(values["max-chars"]) === undefined ? undefined : Number(values["max-chars"]);
        if (maxChars !== undefined && !(Number.isInteger(maxChars) && maxChars > 0))
          throw new CliError(
            `--max-chars must be a positive integer, got ${JSON.stringify(values["max-chars"])}`,
            2,
          );
        const { accessReview } = await import("./access-review.js");
        const result = await accessReview({
          stack: str(values.stack),
          cwd: str(values.cwd),
          plan: str(values.plan),
          format,
          failOn,
          approvals: str(values.approvals),
          gateInputs: str(values["gate-inputs"]),
          live: values.live === true,
          maxChars,
          print: io.out,
          printErr: io.err,
        });
        return result.exitCode;
      }
      case "drift": {
        const { values } = parse(rest, {
          stack: { type: "string" },
          cwd: { type: "string" },
          format: { type: "string" },
          "fail-on": { type: "string" },
          help: { type: "boolean", short: "h" },
        });
        if (values.help === true) return done(io.out, DRIFT_HELP);
        const format = oneOf(values.format, "--format", ["text", "markdown", "json"] as const);
        const failOn = oneOf(values["fail-on"], "--fail-on", ["none", "any", "risky"] as const);
        const { drift } = await import("./drift.js");
        const result = await drift({
          stack: str(values.stack),
          cwd: str(values.cwd),
          format,
          failOn,
          print: io.out,
        });
        return result.exitCode;
      }
      case "version":
      case "--version":
      case "-v":
        return done(io.out, packageVersion());
      case undefined:
      case "help":
      case "--help":
      case "-h":
        return done(io.out, USAGE);
      default:
        throw new CliError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`, 2);
    }
  } catch (err) {
    io.err(`pulumi-irv ${command ?? ""}: ${err instanceof Error ? err.message : String(err)}`);
    // drift's 1 means "found": any failure of it is 2, so a scheduled job never takes one for the other.
    if (command === "drift") return 2;
    return err instanceof CliError ? err.exitCode : 1;
  }
}

function parse<O extends NonNullable<Parameters<typeof parseArgs>[0]>["options"]>(
  args: string[],
  options: O,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (err) {
    // parseArgs names the flag ("Unknown option '--x'", "Option '--root <value>' argument missing").
    throw new CliError(err instanceof Error ? err.message : String(err), 2);
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function oneOf<T extends string>(v: unknown, flag: string, allowed: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (allowed.includes(v as T)) return v as T;
  throw new CliError(`${flag} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`, 2);
}

/**
 * The version of the installed pulumi-irv package (its package.json, read through the package's own
 * name: the bin runs from the package's dist folder).
 *
 * @example
 * packageVersion(); // "0.1.0"
 */
export function packageVersion(): string {
  return (createRequire(import.meta.url)("pulumi-irv/package.json") as { version: string }).version;
}

function done(print: Print, text: string): number {
  print(text);
  return 0;
}
