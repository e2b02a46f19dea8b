// Facts about the published v2beta1 Identity message, as protojson (JSON names) spells them: which
// fields each message has and which of them a client may write. Written from
// chainguard-dev/sdk proto/chainguard/platform/iam/v2beta1/identities.proto (commit 934f4954); each
// entry cites its lines. Only names are kept here, no proto text: the conformance tests compare what
// the client sends and what it accepts against these lists.

/**
 * The fields of each published message the identity kind uses, by JSON name, and those a request
 * may carry (not OUTPUT_ONLY).
 *
 * @example
 * PUBLISHED_IDENTITY.Identity.writable.includes("staticKeys"); // true
 */
export const PUBLISHED_IDENTITY = {
  /** `message Identity`, identities.proto:171-228. */
  Identity: {
    fields: [
      "uid", // :181 OUTPUT_ONLY
      "name", // :188 REQUIRED
      "description", // :191
      "email", // :194 OUTPUT_ONLY
      "emailUnverified", // :197 OUTPUT_ONLY
      "company", // :200
      "lastSeenTime", // :206 OUTPUT_ONLY
      "createTime", // :209 OUTPUT_ONLY
      "updateTime", // :212 OUTPUT_ONLY
      "claimMatch", // :218 oneof relationship
      "staticKeys", // :221 oneof relationship
      "awsIdentity", // :224 oneof relationship
      "servicePrincipal", // :227 oneof relationship
    ],
    outputOnly: ["uid", "email", "emailUnverified", "lastSeenTime", "createTime", "updateTime"],
    /** The `relationship` oneof (:216-228): exactly one is set, the others are left out. */
    oneof: ["claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"],
  },
  /** `message ClaimMatch`, identities.proto:231-262. */
  ClaimMatch: {
    fields: [
      "issuer", // :235 oneof iss
      "issuerPattern", // :237 oneof iss
      "subject", // :243 oneof sub
      "subjectPattern", // :245 oneof sub
      "audience", // :252 oneof aud
      "audiencePattern", // :254 oneof aud
      "claims", // :258 map<string,string>
      "claimPatterns", // :261 map<string,string>
    ],
  },
  /** `message StaticKeys`, identities.proto:266-287. */
  StaticKeys: {
    fields: [
      "issuer", // :268 REQUIRED
      "subject", // :271 REQUIRED
      "issuerKeys", // :274 REQUIRED
      "expirationTime", // :278 OPTIONAL Timestamp, default and maximum creation + 365 days
      "audiences", // :286 repeated string, one value for now
    ],
  },
  /** `message AWSIdentity`, identities.proto:290-309. */
  AwsIdentity: {
    fields: [
      "awsAccount", // :292 REQUIRED
      "arn", // :297 oneof aws_arn
      "arnPattern", // :299 oneof aws_arn
      "userId", // :305 oneof aws_user_id
      "userIdPattern", // :307 oneof aws_user_id
    ],
  },
  /** `enum ServicePrincipal`, identities.proto:516-546 (0 = `SERVICE_PRINCIPAL_UNSPECIFIED`). */
  ServicePrincipal: [
    "SERVICE_PRINCIPAL_COSIGNED", // 1
    "SERVICE_PRINCIPAL_INGESTER", // 2
    "SERVICE_PRINCIPAL_CATALOG_SYNCER", // 3
    "SERVICE_PRINCIPAL_APKO_BUILDER", // 4
    "SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER", // 5
    "SERVICE_PRINCIPAL_TENANT_SCANNER", // 6
    "SERVICE_PRINCIPAL_SEDIMENTOLOGY", // 7
    "SERVICE_PRINCIPAL_SKILLUP", // 8
    "SERVICE_PRINCIPAL_MATERIALIZER", // 9
    "SERVICE_PRINCIPAL_MICROFLOW", // 10
    "SERVICE_PRINCIPAL_GUARDENER", // 11
    "SERVICE_PRINCIPAL_MICROVM", // 12
    "SERVICE_PRINCIPAL_SKILLS", // 13
  ],
} as const;
