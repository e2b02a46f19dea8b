import { hash, randomUUID, timingSafeEqual } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../core/index.js";
import { unauthenticated } from "../core/index.js";
import type { SigningKey } from "./signing-keys.js";

/**
 * Who a bearer token speaks for.
 *
 * @example
 * const principal: Principal = await tokens.authenticate(req.headers.authorization);
 * const caller = service.callerOf(principal);
 */
export type Principal = { kind: "admin" } | { kind: "identity"; uid: string };

/**
 * How API tokens are made and checked.
 *
 * @example
 * const tokens = new ApiTokens({
 *   key: await loadOrCreateSigningKey(db, "apiSigningKey"),
 *   issuer: authUrl,
 *   audience: baseUrl,
 *   ttlSeconds: 3600,
 *   clock: Date.now,
 *   adminToken,
 * });
 */
export interface ApiTokenOptions {
  key: SigningKey;
  /** `iss` of the API tokens: the STS (auth URL). */
  issuer: string;
  /** `aud` of the API tokens: the base URL (spec §5.5). */
  audience: string;
  /** Lifetime of exchanged tokens, seconds (spec: one hour). */
  ttlSeconds: number;
  clock: Clock;
  adminToken: string;
}

const CACHE_LIMIT = 10_000;
// Every request hashes its bearer token (the constant-time admin check below): the one-shot
// `crypto.hash` costs about half of a `createHash` object per call (issue 40).
const sha256 = (s: string) => hash("sha256", s, "buffer");

/**
 * Mints exchanged API tokens (ES256 JWTs: `sub` = identity uid, `aud` = base URL) and turns a
 * request's `Authorization` header into a {@link Principal}. The admin token is compared in constant
 * time before any JWT work; verified JWTs are cached until they expire, so a repeat caller costs a
 * map lookup.
 *
 * @example
 * const principal = await tokens.authenticate(req.headers.authorization);
 */
export class ApiTokens {
  private readonly adminDigest: Buffer;
  private readonly verified = new Map<string, { uid: string; expMs: number }>();

  constructor(private readonly o: ApiTokenOptions) {
    this.adminDigest = sha256(o.adminToken);
  }

  /** The public key of the API tokens, as a JWK. */
  get publicJwk(): SigningKey["publicJwk"] {
    return this.o.key.publicJwk;
  }

  /**
   * A fresh API token for an identity.
   *
   * @example
   * const token = await tokens.mint(identityUid);
   */
  async mint(identityUid: string): Promise<string> {
    const now = Math.floor(this.o.clock() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: this.o.key.kid, typ: "JWT" })
      .setIssuer(this.o.issuer)
      .setAudience(this.o.audience)
      .setSubject(identityUid)
      .setIssuedAt(now)
      .setExpirationTime(now + this.o.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.o.key.privateKey);
  }

  /**
   * The principal of an `Authorization: Bearer …` header. Throws code 16 when the header is missing
   * or malformed, or the token is unknown, forged, expired or meant for another audience.
   *
   * @example
   * await tokens.authenticate("Bearer " + adminToken); // { kind: "admin" }
   */
  async authenticate(header: string | undefined): Promise<Principal> {
    const token = bearer(header);
    if (timingSafeEqual(sha256(token), this.adminDigest)) return { kind: "admin" };
    const now = this.o.clock();
    const hit = this.verified.get(token);
    if (hit !== undefined) {
      if (hit.expMs > now) return { kind: "identity", uid: hit.uid };
      this.verified.delete(token);
      throw unauthenticated("the token has expired");
    }
    let payload: { sub?: string | undefined; exp?: number | undefined };
    try {
      ({ payload } = await jwtVerify(token, this.o.key.publicKey, {
        issuer: this.o.issuer,
        audience: this.o.audience,
        algorithms: ["ES256"],
        currentDate: new Date(now),
        requiredClaims: ["sub", "exp"],
      }));
    } catch (e) {
      throw unauthenticated(describeJwtFailure(e, this.o.audience));
    }
    const uid = payload.sub as string;
    if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
    this.verified.set(token, { uid, expMs: (payload.exp as number) * 1000 });
    return { kind: "identity", uid };
  }
}

/**
 * The token of an `Authorization: Bearer <token>` header; code 16 when there is none.
 *
 * @example
 * bearer("Bearer abc"); // "abc"
 */
export function bearer(header: string | undefined): string {
  if (header === undefined || header === "") {
    throw unauthenticated("this call needs an Authorization: Bearer <token> header");
  }
  const m = /^bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw unauthenticated("the Authorization header must have the form Bearer <token>");
  return m[1];
}

/**
 * Why a JWT failed verification, in words that never include the token.
 *
 * @example
 * describeJwtFailure(new errors.JWTExpired("…", {}), aud); // "the token has expired"
 */
export function describeJwtFailure(e: unknown, audience: string): string {
  if (e instanceof errors.JWTExpired) return "the token has expired";
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === "aud") return `the token's audience is not ${audience}`;
    if (e.claim === "iss") return "the token was not issued by this service";
    return `the token's ${e.claim} claim is not valid`;
  }
  if (e instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is not valid";
  if (e instanceof errors.JOSEAlgNotAllowed)
    return "the token is signed with an algorithm this service does not accept";
  return "the token is not a valid token of this service";
}
