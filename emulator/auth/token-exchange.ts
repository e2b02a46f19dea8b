import { createRemoteJWKSet, decodeJwt, type JWTVerifyGetKey, jwtVerify } from "jose";
import { type ClaimMatch, Code } from "../../sdk/index.js";
import type { Clock } from "../core/index.js";
import { ApiFault, invalidArgument, unauthenticated } from "../core/index.js";
import { type ApiTokens, bearer, describeJwtFailure } from "./api-tokens.js";

/**
 * What the STS needs from the rest of the emulator.
 *
 * @example
 * const sts = new TokenExchange({
 *   trustedIssuers: [issuerUrl],
 *   stsAudience: authUrl,
 *   apiAudience: baseUrl,
 *   clock: Date.now,
 *   apiTokens,
 *   claimMatchOf: (uid) => service.claimMatchOf(uid),
 *   markSeen: (uid) => service.markSeen(uid),
 * });
 */
export interface TokenExchangeOptions {
  /** Issuers whose tokens are accepted; their keys are the only thing ever fetched. */
  trustedIssuers: readonly string[];
  /** The `aud` a workload token must carry (the auth URL). */
  stsAudience: string;
  /** The only `aud` query value accepted: the base URL. */
  apiAudience: string;
  clock: Clock;
  apiTokens: ApiTokens;
  /** The claimMatch of an identity, or undefined when there is none. */
  claimMatchOf(identityUid: string): ClaimMatch | undefined;
  /** Records a successful exchange on the identity (`lastSeenTime`). */
  markSeen(identityUid: string): void;
}

/**
 * The token exchange endpoint (`GET {authUrl}/sts/exchange?aud=…&identity=…`): verifies a workload
 * token of a trusted issuer through that issuer's JWKS (fetched over HTTP, cached), checks it against
 * the identity's claimMatch and mints an API token.
 *
 * Failures: no or bad workload token (untrusted issuer, bad signature, expired, wrong audience) → 16;
 * a valid token that may not get what it asks for (wrong `aud`, unknown identity, claim mismatch) → 7,
 * one message for the last two so identity uids cannot be probed; missing parameters → 3.
 *
 * @example
 * const apiToken = await sts.exchange(req.headers.authorization, { aud: baseUrl, identity: uid });
 */
export class TokenExchange {
  private readonly keySets = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(private readonly o: TokenExchangeOptions) {}

  /**
   * Exchanges the workload token of `authorization` for an API token.
   *
   * @example
   * await sts.exchange("Bearer eyJ…", { aud: baseUrl, identity: uid });
   */
  async exchange(
    authorization: string | undefined,
    query: { aud?: unknown; identity?: unknown },
  ): Promise<string> {
    const token = bearer(authorization);
    const aud = single(query.aud, "aud");
    const identity = single(query.identity, "identity");

    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw unauthenticated("the identity token is not a JWT");
    }
    if (issuer === undefined || !this.o.trustedIssuers.includes(issuer)) {
      throw unauthenticated(
        `the identity token's issuer ${JSON.stringify(issuer ?? "")} is not trusted by this STS`,
      );
    }
    let claims: { iss?: string | undefined; sub?: string | undefined };
    try {
      ({ payload: claims } = await jwtVerify(token, await this.keySet(issuer), {
        issuer,
        audience: this.o.stsAudience,
        currentDate: new Date(this.o.clock()),
        requiredClaims: ["sub", "exp"],
      }));
    } catch (e) {
      if (e instanceof ApiFault) throw e;
      throw unauthenticated(
        describeJwtFailure(e, this.o.stsAudience).replace("the token", "the identity token"),
      );
    }
    if (aud.replace(/\/$/, "") !== this.o.apiAudience) {
      throw new ApiFault(
        Code.PERMISSION_DENIED,
        `this STS issues API tokens only for the audience ${this.o.apiAudience}`,
      );
    }
    const match = this.o.claimMatchOf(identity);
    if (match === undefined || match.issuer !== claims.iss || match.subject !== claims.sub) {
      throw new ApiFault(
        Code.PERMISSION_DENIED,
        `the identity token may not assume identity ${JSON.stringify(identity)}`,
      );
    }
    this.o.markSeen(identity);
    return this.o.apiTokens.mint(identity);
  }

  // The JWKS location comes from the issuer's discovery document and must be on the issuer's own
  // origin: nothing but trusted issuers is ever fetched.
  private keySet(issuer: string): Promise<JWTVerifyGetKey> {
    let set = this.keySets.get(issuer);
    if (!set) {
      set = discoverJwks(issuer);
      this.keySets.set(issuer, set);
      set.catch(() => this.keySets.delete(issuer));
    }
    return set;
  }
}

async function discoverJwks(issuer: string): Promise<JWTVerifyGetKey> {
  const unavailable = (why: string) =>
    unauthenticated(`the keys of issuer ${JSON.stringify(issuer)} could not be read (${why})`);
  let doc: { jwks_uri?: unknown };
  try {
    const res = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw unavailable(`discovery answered HTTP ${res.status}`);
    doc = (await res.json()) as { jwks_uri?: unknown };
  } catch (e) {
    if (e instanceof ApiFault) throw e;
    throw unavailable("discovery failed");
  }
  if (typeof doc.jwks_uri !== "string") throw unavailable("no jwks_uri in discovery");
  const jwksUrl = new URL(doc.jwks_uri);
  if (jwksUrl.origin !== new URL(issuer).origin) throw unavailable("jwks_uri is on another origin");
  return createRemoteJWKSet(jwksUrl, { timeoutDuration: 5000 });
}

function single(value: unknown, name: string): string {
  if (typeof value === "string" && value !== "") return value;
  throw invalidArgument([
    { field: name, description: Array.isArray(value) ? "must be given once" : "is required" },
  ]);
}
