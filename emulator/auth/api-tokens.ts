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
const sha256 = (s: string) => hash("sha256", s, "buffer");
const ADMIN: Principal = Object.freeze({ kind: "admin" });

/**
 * Mints exchanged API tokens (ES256 JWTs: `sub` = identity uid, `aud` = base URL) and turns a
 * request's `Authorization` header into a {@link Principal}. A token seen for the first time is
 * compared with the admin token in constant time (of their hashes) before any JWT work. Accepted
 * tokens are remembered with their principal until they expire (the admin token never does), so a
 * repeat caller costs a map lookup: no hash, no signature check (issue 40: hashing every request's
 * token showed as 50-70 ms of 3,000 Gets and 3,000 Deletes in a profile). The lookup says nothing of
 * a remembered token's characters: a string key is compared by its hash before its text. Nothing
 * else ends a token early: a deleted identity's tokens are refused by the service (`callerOf`), which
 * checks the identity on every request.
 *
 * @example
 * const principal = await tokens.authenticate(req.headers.authorization);
 */
export class ApiTokens {
  private readonly adminDigest: Buffer;
  /** Tokens accepted before, with their principal and when they expire (ms). */
  private readonly accepted = new Map<string, { principal: Principal; expMs: number }>();

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
    const now = this.o.clock();
    const hit = this.accepted.get(token);
    if (hit !== undefined) {
      if (hit.expMs > now) return hit.principal;
      this.accepted.delete(token);
      throw unauthenticated("the token has expired");
    }
    if (timingSafeEqual(sha256(token), this.adminDigest)) return this.remember(token, ADMIN, Infinity);
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
    const principal: Principal = Object.freeze({ kind: "identity", uid: payload.sub as string });
    return this.remember(token, principal, (payload.exp as number) * 1000);
  }

  private remember(token: string, principal: Principal, expMs: number): Principal {
    if (this.accepted.size >= CACHE_LIMIT) this.accepted.clear();
    this.accepted.set(token, { principal, expMs });
    return principal;
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
