import type { JWTPayload, JWTVerifyGetKey } from "jose";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import type { Identity, StaticKeys } from "pulumi-irv/sdk";
import { Code } from "pulumi-irv/sdk";
import type { Clock } from "../core/index.js";
import { ApiFault, invalidArgument, unauthenticated } from "../core/index.js";
import type { ApiTokens } from "./api-tokens.js";
import { bearer, describeJwtFailure } from "./api-tokens.js";
import { audiences, claimsMatch } from "./claim-match.js";
import { IssuerKeys, IssuerKeysUnavailable } from "./issuer-keys.js";

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
 *   identityOf: (uid) => service.identityOf(uid),
 *   markSeen: (uid) => service.markSeen(uid),
 * });
 */
export interface TokenExchangeOptions {
  /** Issuers whose tokens are accepted; their keys are the only thing ever fetched. */
  trustedIssuers: readonly string[];
  /** Fetches and caches the issuers' keys (default: one of {@link IssuerKeys} on `clock`). */
  issuerKeys?: IssuerKeys | undefined;
  /** The `aud` a workload token must carry (the auth URL). */
  stsAudience: string;
  /** The only `aud` query value accepted: the base URL. */
  apiAudience: string;
  clock: Clock;
  apiTokens: ApiTokens;
  /** An identity as stored, or undefined when there is none. */
  identityOf(identityUid: string): Identity | undefined;
  /** Records a successful exchange on the identity (`lastSeenTime`). */
  markSeen(identityUid: string): void;
}

/**
 * The token exchange endpoint (`GET {authUrl}/sts/exchange?aud=…&identity=…`): verifies a workload
 * token and checks it against the identity, then mints an API token. Identity variants:
 * - `claimMatch`: a token of a trusted issuer, verified through that issuer's JWKS (fetched over
 *   HTTP, cached), whose claims match exactly or by pattern (see {@link claimsMatch});
 * - `staticKeys`: a token of the identity's issuer, signed by one of its `issuerKeys`, before its
 *   `expirationTime` (no fetch: the keys are in the identity), carrying one of its `audiences` when
 *   it names some, else the STS's own;
 * - `awsIdentity`: refused (code 9): the emulator cannot verify AWS signatures;
 * - `servicePrincipal`: refused (code 7): only the service assumes its own principals.
 *
 * Failures: no or bad workload token (untrusted issuer, bad signature, expired, wrong audience) → 16;
 * a valid token that may not get what it asks for (wrong `aud`, unknown identity, claim mismatch) → 7,
 * one message for the last two so identity uids cannot be probed; missing parameters → 3.
 *
 * @example
 * const apiToken = await sts.exchange(req.headers.authorization, { aud: baseUrl, identity: uid });
 */
export class TokenExchange {
  private readonly issuerKeys: IssuerKeys;

  constructor(private readonly o: TokenExchangeOptions) {
    this.issuerKeys = o.issuerKeys ?? new IssuerKeys(o.clock);
  }

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
    const identityUid = single(query.identity, "identity");

    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw unauthenticated("the identity token is not a JWT");
    }
    const identity = this.o.identityOf(identityUid);
    const mayNot = () =>
      new ApiFault(
        Code.PERMISSION_DENIED,
        `the identity token may not assume identity ${JSON.stringify(identityUid)}`,
      );
    let claims: JWTPayload;
    const keys = identity?.staticKeys ?? undefined;
    if (keys !== undefined && keys.issuer === issuer) {
      claims = await this.verifyStatic(token, keys);
    } else {
      if (issuer === undefined || !this.o.trustedIssuers.includes(issuer)) {
        throw unauthenticated(
          `the identity token's issuer ${JSON.stringify(issuer ?? "")} is not trusted by this STS`,
        );
      }
      claims = await this.verify(token, issuer, this.issuerKeys.forIssuer(issuer));
      const m = identity?.claimMatch;
      // An identity naming its audience decides it; otherwise tokens are for this STS.
      if (m?.audience === undefined && m?.audiencePattern === undefined) {
        if (!audiences(claims).includes(this.o.stsAudience)) {
          throw unauthenticated(`the identity token's audience is not ${this.o.stsAudience}`);
        }
      }
    }
    if (aud.replace(/\/$/, "") !== this.o.apiAudience) {
      throw new ApiFault(
        Code.PERMISSION_DENIED,
        `this STS issues API tokens only for the audience ${this.o.apiAudience}`,
      );
    }
    // Only a verified caller learns what kind of identity a uid names: before this point every
    // answer is the same whatever the uid (no probing for AWS identities or service principals).
    if (identity?.awsIdentity !== undefined) {
      throw new ApiFault(
        Code.FAILED_PRECONDITION,
        `identity ${JSON.stringify(identityUid)} is an AWS identity: the emulator cannot verify AWS signatures, so it cannot be assumed here (see docs/emulator.md)`,
      );
    }
    if (identity?.servicePrincipal !== undefined) {
      throw new ApiFault(
        Code.PERMISSION_DENIED,
        `identity ${JSON.stringify(identityUid)} stands for the service principal ${identity.servicePrincipal}, which only the service itself assumes`,
      );
    }
    if (keys !== undefined) {
      if (claims.sub !== keys.subject) throw mayNot();
    } else if (identity?.claimMatch === undefined || !claimsMatch(identity.claimMatch, claims)) {
      throw mayNot();
    }
    this.o.markSeen(identityUid);
    return this.o.apiTokens.mint(identityUid);
  }

  private async verify(token: string, issuer: string, keys: JWTVerifyGetKey): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        currentDate: new Date(this.o.clock()),
        requiredClaims: ["sub", "exp"],
      });
      return payload;
    } catch (e) {
      if (e instanceof IssuerKeysUnavailable) {
        throw unauthenticated(
          `the keys of issuer ${JSON.stringify(issuer)} could not be read (${e.message})`,
        );
      }
      throw unauthenticated(
        describeJwtFailure(e, this.o.stsAudience).replace("the token", "the identity token"),
      );
    }
  }

  // Static keys carry their issuer's public keys: nothing is fetched. Their tokens are for the
  // identity's own audiences when it names some ("the global allowed audiences are bypassed
  // entirely", identities.proto:280-286), else for this STS; accepted until the keys' expiration
  // (always stored: the emulator sets the service's default at the create).
  private async verifyStatic(token: string, s: StaticKeys): Promise<JWTPayload> {
    if (s.expirationTime !== undefined && this.o.clock() >= Date.parse(s.expirationTime)) {
      throw unauthenticated(`the identity's static keys expired at ${s.expirationTime}`);
    }
    const claims = await this.verify(token, s.issuer, createLocalJWKSet(JSON.parse(s.issuerKeys)));
    const accepted = s.audiences?.length ? s.audiences : [this.o.stsAudience];
    if (!audiences(claims).some((a) => accepted.includes(a))) {
      throw unauthenticated(`the identity token's audience is not ${accepted.join(" or ")}`);
    }
    return claims;
  }
}

function single(value: unknown, name: string): string {
  if (typeof value === "string" && value !== "") return value;
  throw invalidArgument([
    { field: name, description: Array.isArray(value) ? "must be given once" : "is required" },
  ]);
}
