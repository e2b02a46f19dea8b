import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Clock } from "../core/index.js";
import type { SigningKey } from "./signing-keys.js";

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
  /** Lifetime, seconds (default one hour). */
  ttlSeconds?: number | undefined;
}

/**
 * The local OIDC issuer: it mints workload tokens for tests (the stand-in for a CI system's or a
 * cloud's identity provider) and publishes its discovery document and JWKS, which the STS reads over
 * HTTP like any other issuer's.
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
    const now = Math.floor(this.clock() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: this.key.kid, typ: "JWT" })
      .setIssuer(this.issuerUrl)
      .setSubject(req.subject)
      .setAudience(req.audience ?? this.defaultAudience)
      .setIssuedAt(now)
      .setExpirationTime(now + (req.ttlSeconds ?? 3600))
      .setJti(randomUUID())
      .sign(this.key.privateKey);
  }
}
