import { z } from "zod";
import { optionalMessage, ProtoString, repeated } from "./common.js";

// The published `CustomOverlay` (registry/v2beta1/repos.proto, message CustomOverlay): a repo's own
// image customization, and the shape of a reusable Overlay's `config`.

const named = z.object({ name: ProtoString, content: ProtoString });

/**
 * An overlay's image contents: packages to add, and the apk repositories and keys to use.
 *
 * @example
 * ImageContents.parse({ packages: ["curl"] }); // { packages: ["curl"], runtimeRepositories: [], runtimeKeyring: [] }
 */
export const ImageContents = z.object({
  packages: repeated(z.string()),
  runtimeRepositories: repeated(z.string()),
  runtimeKeyring: repeated(named),
});

/**
 * Accounts an overlay adds to an image (`CustomOverlay.Accounts`).
 *
 * @example
 * OverlayAccounts.parse({ runAs: "65532" });
 */
export const OverlayAccounts = z.object({
  runAs: ProtoString,
  users: repeated(
    z.object({
      username: ProtoString,
      uid: z.number().int().nullish(),
      gid: z.number().int().nullish(),
      groupName: ProtoString,
      shell: ProtoString,
      homeDir: ProtoString,
    }),
  ),
  groups: repeated(
    z.object({ groupname: ProtoString, gid: z.number().int().nullish(), members: repeated(z.string()) }),
  ),
});

/**
 * Certificates an overlay adds to an image (`CustomOverlay.Certificates`).
 *
 * @example
 * OverlayCertificates.parse({ providers: ["ca-certificates"] });
 */
export const OverlayCertificates = z.object({ additional: repeated(named), providers: repeated(z.string()) });

/**
 * The published `CustomOverlay` as read: every part optional, unset maps empty.
 *
 * @example
 * CustomOverlay.parse({ contents: { packages: ["bash"] }, environment: { TZ: "UTC" } });
 */
export const CustomOverlay = z.object({
  contents: optionalMessage(ImageContents),
  environment: z
    .record(z.string(), z.string())
    .nullish()
    .transform((v) => v ?? {}),
  annotations: z
    .record(z.string(), z.string())
    .nullish()
    .transform((v) => v ?? {}),
  accounts: optionalMessage(OverlayAccounts),
  certificates: optionalMessage(OverlayCertificates),
});
/**
 * A custom overlay as read.
 *
 * @example
 * const overlay: CustomOverlay = repo.customOverlay ?? { environment: {}, annotations: {} };
 */
export type CustomOverlay = z.infer<typeof CustomOverlay>;

const RESERVED_ENV = /^CHAINGUARD_/;
const RESERVED_ANNOTATION = /^(dev\.chainguard\.|org\.opencontainers\.)/;

/**
 * A custom overlay as written: unknown fields are refused by name, and the reserved key prefixes of
 * the published comments (`CHAINGUARD_` environment keys; `dev.chainguard.` and
 * `org.opencontainers.` annotation keys) are refused before any call.
 *
 * @example
 * CustomOverlayInput.parse({ environment: { CHAINGUARD_X: "1" } }); // throws: environment key "CHAINGUARD_X" is reserved
 */
export const CustomOverlayInput = z.strictObject({
  contents: z
    .strictObject({
      packages: z.array(z.string().min(1)).optional(),
      runtimeRepositories: z.array(z.url()).optional(),
      runtimeKeyring: z
        .array(z.strictObject({ name: z.string().min(1), content: z.string().min(1) }))
        .optional(),
    })
    .optional(),
  environment: z
    .record(
      z.string().refine((k) => !RESERVED_ENV.test(k), {
        error: (i) => `environment key ${JSON.stringify(i.input)} is reserved (prefix CHAINGUARD_)`,
      }),
      z.string(),
    )
    .optional(),
  annotations: z
    .record(
      z.string().refine((k) => !RESERVED_ANNOTATION.test(k), {
        error: (i) =>
          `annotation key ${JSON.stringify(i.input)} is reserved (prefixes dev.chainguard. and org.opencontainers.)`,
      }),
      z.string(),
    )
    .optional(),
  accounts: z
    .strictObject({
      runAs: z.string().optional(),
      users: z
        .array(
          z.strictObject({
            username: z.string().min(1),
            uid: z.number().int().optional(),
            gid: z.number().int().optional(),
            groupName: z.string().optional(),
            shell: z.string().optional(),
            homeDir: z.string().optional(),
          }),
        )
        .optional(),
      groups: z
        .array(
          z.strictObject({
            groupname: z.string().min(1),
            gid: z.number().int().optional(),
            members: z.array(z.string()).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  certificates: z
    .strictObject({
      additional: z.array(z.strictObject({ name: z.string().min(1), content: z.string().min(1) })).optional(),
      providers: z.array(z.string().min(1)).optional(),
    })
    .optional(),
});
/**
 * A custom overlay as written.
 *
 * @example
 * const overlay: CustomOverlayInput = { contents: { packages: ["curl"] } };
 */
export type CustomOverlayInput = z.infer<typeof CustomOverlayInput>;
