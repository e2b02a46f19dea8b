import { CustomOverlayInputSchema } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import { throwNestedZodViolations } from "./violations.js";

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === "string" ? v : "");
const int = (v: unknown): number => (typeof v === "number" ? v : 0);
const map = (v: unknown): Fields => (isObject(v) ? v : {});

/**
 * A value left at its proto default: what a client that read the resource back sends for a field
 * it did not set (protojson writes every field), and what the gateway treats as not populated.
 *
 * @example
 * unpopulated([]); // true
 */
export function unpopulated(v: unknown): boolean {
  if (v === undefined || v === null || v === "" || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.values(v).every(unpopulated);
}

/**
 * The populated part of a value: keys at their proto default dropped, recursively (an object left
 * empty is dropped too).
 *
 * @example
 * populated({ contents: { packages: ["curl"], runtimeRepositories: [] }, accounts: null });
 * // { contents: { packages: ["curl"] } }
 */
export function populated(v: Fields): Fields {
  const out: Fields = {};
  for (const [k, x] of Object.entries(v)) {
    if (unpopulated(x)) continue;
    out[k] = isObject(x) ? populated(x) : x;
  }
  return out;
}

/**
 * Checks a custom overlay as written (a repo's `customOverlay`; code 3 naming the field under
 * `field`), its unpopulated fields ignored, and answers it in the gateway's form: every field of the
 * published `CustomOverlay` (repos.proto), unset ones at their defaults, unset messages `null`.
 *
 * @example
 * customOverlayOf({ contents: { packages: ["curl"] } }, "customOverlay").environment; // {}
 */
export function customOverlayOf(value: unknown, field: string): Fields {
  if (!isObject(value)) throw invalidArgument([{ field, description: "must be a JSON object" }]);
  const parsed = CustomOverlayInputSchema.safeParse(populated(value));
  if (!parsed.success) throwNestedZodViolations(parsed.error, field);
  return wireOverlay(parsed.data as Fields);
}

/**
 * A custom overlay in the gateway's form (see {@link customOverlayOf}), from checked fields.
 *
 * @example
 * wireOverlay({ contents: { packages: ["curl"] } }).accounts; // null
 */
export function wireOverlay(o: Fields): Fields {
  const contents = isObject(o.contents) ? o.contents : undefined;
  const accounts = isObject(o.accounts) ? o.accounts : undefined;
  const certificates = isObject(o.certificates) ? o.certificates : undefined;
  const named = (e: unknown) => ({ name: text(map(e).name), content: text(map(e).content) });
  return {
    contents:
      contents === undefined
        ? null
        : {
            packages: list(contents.packages),
            runtimeRepositories: list(contents.runtimeRepositories),
            runtimeKeyring: list(contents.runtimeKeyring).map(named),
          },
    environment: map(o.environment),
    annotations: map(o.annotations),
    accounts:
      accounts === undefined
        ? null
        : {
            runAs: text(accounts.runAs),
            users: list(accounts.users).map((u) => {
              const x = map(u);
              return {
                username: text(x.username),
                uid: int(x.uid),
                gid: int(x.gid),
                groupName: text(x.groupName),
                shell: text(x.shell),
                homeDir: text(x.homeDir),
              };
            }),
            groups: list(accounts.groups).map((g) => {
              const x = map(g);
              return { groupname: text(x.groupname), gid: int(x.gid), members: list(x.members) };
            }),
          },
    certificates:
      certificates === undefined
        ? null
        : { additional: list(certificates.additional).map(named), providers: list(certificates.providers) },
  };
}
