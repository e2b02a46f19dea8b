import { z } from "zod";

/**
 * The group name rule of the API (spec §2 and §8). Shared by the client, the emulator, the provider's
 * `check` and the policy pack so that all of them refuse exactly the same names.
 *
 * @example
 * GROUP_NAME_PATTERN.test("platform-team"); // true
 * GROUP_NAME_PATTERN.test("Platform");      // false: capitals
 */
export const GROUP_NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

/**
 * The pattern as the API writes it in error details and as we print it in messages.
 *
 * @example
 * `name must match ${GROUP_NAME_PATTERN_SOURCE}`;
 */
export const GROUP_NAME_PATTERN_SOURCE = "^[a-z0-9 ._-]{1,}$";

/**
 * An RFC 3339 timestamp. The server writes UTC with milliseconds and `Z`; the client accepts any
 * offset and precision so that a server change of format is never a failure.
 *
 * @example
 * Timestamp.parse("2026-11-21T10:00:00.000Z");
 */
export const Timestamp = z.iso.datetime({ offset: true });

/**
 * A resource uid: the root organization is 40 hex digits and every nested segment 16 hex digits,
 * each child's uid starting with its parent's uid and `/`. Role uids are flat hex.
 *
 * @example
 * Uid.parse("0123456789abcdef0123456789abcdef01234567/0123456789abcdef");
 */
export const Uid = z.string().min(1);

/**
 * Pattern of a well-formed hierarchical uid (root plus any number of child segments).
 *
 * @example
 * HIERARCHICAL_UID_PATTERN.test("0123456789abcdef0123456789abcdef01234567/0123456789abcdef"); // true
 * HIERARCHICAL_UID_PATTERN.test("0123456789abcdef0123456789abcdef01234567/"); // false: empty segment
 */
export const HIERARCHICAL_UID_PATTERN = /^[0-9a-f]{40}(\/[0-9a-f]{16})*$/;

/**
 * The `totalCount` of a list envelope: the spec writes it as a string holding an integer; a number is
 * accepted too. Parsed to a number.
 *
 * @example
 * TotalCount.parse("14"); // 14
 */
export const TotalCount = z
  .union([z.string().regex(/^\d+$/), z.number().int().nonnegative()])
  .transform(Number);

/**
 * A timestamp the service may leave unset. grpc-gateway writes every unset message field, a
 * Timestamp included, as `null` (protojson `EmitUnpopulated`, its default marshaler); read as
 * absent.
 *
 * @example
 * OptionalTimestamp.parse(null);                       // undefined
 * OptionalTimestamp.parse("2026-11-21T10:00:00.000Z"); // the string
 */
export const OptionalTimestamp = Timestamp.nullish()
  .transform((v) => v ?? undefined)
  .optional();

/**
 * A proto3 string without presence, as read: the gateway writes an unset one as `""`, which is the
 * same value as absent in proto3, so both read as absent (no phantom `"" → undefined` diffs).
 *
 * @example
 * OptionalString.parse("");     // undefined
 * OptionalString.parse(null);   // undefined
 * OptionalString.parse("team"); // "team"
 */
export const OptionalString = z
  .string()
  .nullish()
  .transform((v) => (v === "" || v == null ? undefined : v))
  .optional();

/**
 * A proto3 string the service always sets (a `REQUIRED` or output-only field), as read: `null` or
 * absent read as `""`, the proto3 default, so one odd answer never fails a whole list.
 *
 * @example
 * ProtoString.parse(null);        // ""
 * ProtoString.parse("sha256:ab"); // "sha256:ab"
 */
export const ProtoString = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/**
 * A proto3 enum as read, by value name (protojson's default). A number (`UseEnumNumbers`) becomes
 * the name of that value when `names` has it; a name or number the client does not know is kept as
 * text, so a value added by a newer server never fails a parse; unset reads as `names[0]` (the
 * `…_UNSPECIFIED` value).
 *
 * @example
 * const Tier = protoEnum(["CATALOG_TIER_UNSPECIFIED", "CATALOG_TIER_APPLICATION"]);
 * Tier.parse(1);                      // "CATALOG_TIER_APPLICATION"
 * Tier.parse("CATALOG_TIER_NEW_ONE"); // "CATALOG_TIER_NEW_ONE"
 * Tier.parse(null);                   // "CATALOG_TIER_UNSPECIFIED"
 */
export function protoEnum<const N extends readonly [string, ...string[]]>(names: N) {
  return z
    .union([z.string(), z.number().int()])
    .nullish()
    .transform((v): N[number] | (string & {}) =>
      v == null ? names[0] : typeof v === "number" ? (names[v] ?? String(v)) : v,
    );
}

/**
 * An unset singular message field, read leniently: `null` (gateway default) and absent are the same.
 *
 * @example
 * const Wrapper = z.object({ amazon: optionalMessage(z.object({ account: z.string() })) });
 * Wrapper.parse({ amazon: null }); // { amazon: undefined }
 */
export function optionalMessage<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((v) => (v == null ? undefined : v) as z.output<T> | undefined)
    .optional();
}

/**
 * A repeated field as read: `[]` under `EmitUnpopulated`, `null` or absent from older writers.
 *
 * @example
 * repeated(z.string()).parse(null); // []
 */
export function repeated<T extends z.ZodType>(schema: T) {
  return z
    .array(schema)
    .nullish()
    .transform((v) => (v ?? []) as z.output<T>[]);
}

/**
 * An int64 as protojson writes it (a decimal string); a number is accepted too. Kept as a string so
 * ids beyond 2^53 stay exact.
 *
 * @example
 * Int64.parse("12345678901234567890"); // "12345678901234567890"
 * Int64.parse(42);                     // "42"
 */
export const Int64 = z
  .union([z.string().regex(/^-?\d+$/, { message: "must be an integer" }), z.number().int()])
  .transform(String);
