import { decodeJwt, jwtVerify } from "jose";
import { type ClaimMatch, Code } from "pulumi-irv/sdk";
import type { Clock } from "../core/index.js";
import { ApiFault, invalidArgument, unauthenticated } from "../core/index.js";
import { type ApiTokens, bearer, describeJwtFailure } from "./api-tokens.js";
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
 *   claimMatchOf: (uid) => service.claimMatchOf(uid),
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
      ({ payload: claims } = await jwtVerify(token, this.issuerKeys.forIssuer(issuer), {
        issuer,
        audience: this.o.stsAudience,
        currentDate: new Date(this.o.clock()),
        requiredClaims: ["sub", "exp"],
      }));
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
}

function single(value: unknown, name: string): string {
  if (typeof value === "string" && value !== "") return value;
  throw invalidArgument([
    { field: name, description: Array.isArray(value) ? "must be given once" : "is required" },
  ]);
}
