import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Clock } from "../core/index.js";
import { invalidArgument } from "../core/index.js";
import type { SigningKey } from "./signing-keys.js";

/**
 * The longest lifetime of a token the emulator mints (workload tokens of the local issuer, exchanged
 * API tokens): 24 hours. Anyone who can reach the issuer gets tokens; a long-lived one outlives the
 * test that asked for it.
 *
 * @example
 * await emu.mintIdentityToken({ subject: "ci", ttlSeconds: MAX_TOKEN_TTL_SECONDS });
 */
export const MAX_TOKEN_TTL_SECONDS = 24 * 3600;

/**
 * A request for a workload token from the local issuer.
 *
 * @example
 * await emu.mintIdentityToken({ subject: "ci", audience: emu.authUrl });
 */
export interface WorkloadTokenRequest {
  subject: string;
  /** Defaults to the audience the emulator's STS expects. */
  audience?: string | undefined;
  /** Lifetime, seconds (default one hour, at most {@link MAX_TOKEN_TTL_SECONDS}). */
  ttlSeconds?: number | undefined;
  /**
   * Extra claims, as a CI system's identity provider adds them (GitHub's `repository`, `ref`,
   * `environment`, `job_workflow_ref`; GitLab's `project_path`, `ref_type`, …). The registered
   * claims are the issuer's own: see {@link RESERVED_CLAIMS}.
   */
  claims?: Record<string, unknown> | undefined;
}

/**
 * The claims the issuer sets itself, which `claims` may not set: a test token must still be this
 * issuer's, for its subject and audience, with the lifetime asked for.
 *
 * @example
 * RESERVED_CLAIMS.includes("iss"); // true
 */
export const RESERVED_CLAIMS = ["iss", "sub", "aud", "exp", "iat", "nbf", "jti"] as const;

/**
 * The rule a token lifetime must follow, as error messages state it.
 *
 * @example
 * invalidArgument([{ field: "ttlSeconds", description: TTL_RULE }]);
 */
export const TTL_RULE = `must be a whole number of seconds from 1 to ${MAX_TOKEN_TTL_SECONDS} (24 hours)`;

/**
 * The local OIDC issuer: it mints workload tokens for tests (the stand-in for a CI system's or a
 * cloud's identity provider) and publishes its discovery document and JWKS, which the STS reads over
 * HTTP like any other issuer's. It mints for anyone who asks: keep it on loopback. Lifetimes are
 * capped at {@link MAX_TOKEN_TTL_SECONDS}.
 *
 * @example
 * const issuer = new LocalIssuer(key, "http://127.0.0.1:4000/oidc", "http://127.0.0.1:4000/auth", Date.now);
 * const token = await issuer.mint({ subject: "ci" });
 */
export class LocalIssuer {
  constructor(
    private readonly key: SigningKey,
    readonly issuerUrl: string,
    private readonly defaultAudience: string,
    private readonly clock: Clock,
  ) {}

  /**
   * The OpenID Connect discovery document.
   *
   * @example
   * issuer.discovery().jwks_uri; // ".../oidc/jwks"
   */
  discovery(): Record<string, unknown> {
    return {
      issuer: this.issuerUrl,
      jwks_uri: `${this.issuerUrl}/jwks`,
      token_endpoint: `${this.issuerUrl}/token`,
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
      claims_supported: ["iss", "sub", "aud", "exp", "iat", "jti"],
      // Any other claim a token request names (`claims`), as CI systems' issuers add them.
    };
  }

  /**
   * The JWKS holding the issuer's public key.
   *
   * @example
   * issuer.jwks().keys.length; // 1
   */
  jwks(): { keys: unknown[] } {
    return { keys: [this.key.publicJwk] };
  }

  /**
   * A signed workload token (`iss` = issuer URL).
   *
   * @example
   * await issuer.mint({ subject: "repo:acme/app", audience: "irv-sts" });
   */
  async mint(req: WorkloadTokenRequest): Promise<string> {
    const ttl = req.ttlSeconds ?? 3600;
    if (!Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TOKEN_TTL_SECONDS) {
      throw invalidArgument([{ field: "ttlSeconds", description: TTL_RULE }]);
    }
    const reserved = Object.keys(req.claims ?? {}).filter((k) =>
      (RESERVED_CLAIMS as readonly string[]).includes(k),
    );
    if (reserved.length > 0) {
      throw invalidArgument(
        reserved.map((k) => ({
          field: `claims.${k}`,
          description: `is set by the issuer (${RESERVED_CLAIMS.join(", ")}): use subject, audience or ttlSeconds`,
        })),
      );
    }
    const now = Math.floor(this.clock() / 1000);
    return new SignJWT({ ...req.claims })
      .setProtectedHeader({ alg: "ES256", kid: this.key.kid, typ: "JWT" })
      .setIssuer(this.issuerUrl)
      .setSubject(req.subject)
      .setAudience(req.audience ?? this.defaultAudience)
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
  }
}
