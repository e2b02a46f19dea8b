import type { JSONWebKeySet, JWTVerifyGetKey } from "jose";
import { createLocalJWKSet, errors } from "jose";
import type { Clock } from "../core/index.js";

/**
 * How the STS fetches a trusted issuer's keys (recorded in docs/contract-decisions.md).
 *
 * @example
 * new IssuerKeys(Date.now, { ...ISSUER_FETCH_POLICY, failureTtlMs: 5_000 });
 */
export interface IssuerFetchPolicy {
  /** One HTTP request, ms. */
  timeoutMs: number;
  /** Largest discovery document or JWKS, bytes. */
  maxBytes: number;
  /** Redirects followed, each only on the issuer's own origin. */
  maxRedirects: number;
  /** How long fetched keys are used before they are fetched again, ms. */
  keysMaxAgeMs: number;
  /** A token naming a key the set lacks refetches the set at most this often, ms. */
  cooldownMs: number;
  /** How long a failed fetch is remembered (and answered) before the issuer is tried again, ms. */
  failureTtlMs: number;
}

/**
 * The policy in force: 5 s per request, 256 KiB per document, 3 same-origin redirects, keys kept
 * 10 minutes, refetched for an unknown key at most every 30 s, failures remembered 30 s.
 *
 * @example
 * ISSUER_FETCH_POLICY.failureTtlMs; // 30000
 */
export const ISSUER_FETCH_POLICY: Readonly<IssuerFetchPolicy> = {
  timeoutMs: 5_000,
  maxBytes: 256 * 1024,
  maxRedirects: 3,
  keysMaxAgeMs: 10 * 60_000,
  cooldownMs: 30_000,
  failureTtlMs: 30_000,
};

/**
 * Why an issuer's keys could not be read; the STS answers code 16 with it.
 *
 * @example
 * if (e instanceof IssuerKeysUnavailable) throw unauthenticated(e.message);
 */
export class IssuerKeysUnavailable extends Error {
  override readonly name = "IssuerKeysUnavailable";
}

interface Loaded {
  keys: JWTVerifyGetKey;
  fetchedAt: number;
}

interface Entry {
  result: Promise<Loaded>;
  /** When the fetch settled; undefined while it runs. */
  settledAt: number | undefined;
  failed: boolean;
}

/**
 * The keys of trusted OIDC issuers, fetched only as the STS must: the discovery document at
 * `{issuer}/.well-known/openid-configuration`, then its `jwks_uri`, which must be on the issuer's
 * origin. Redirects are followed only within that origin. Concurrent callers share one fetch; keys
 * are kept {@link IssuerFetchPolicy.keysMaxAgeMs}; a failure is remembered
 * {@link IssuerFetchPolicy.failureTtlMs}, so tokens naming an unreachable issuer (anyone can send
 * those, unauthenticated) cannot make the STS fetch again and again.
 *
 * @example
 * const keys = new IssuerKeys(Date.now);
 * await jwtVerify(token, keys.forIssuer("https://token.actions.githubusercontent.com"));
 */
export class IssuerKeys {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly policy: Readonly<IssuerFetchPolicy> = ISSUER_FETCH_POLICY,
  ) {}

  /**
   * The key lookup for `jwtVerify` of one issuer's tokens. Rejects with
   * {@link IssuerKeysUnavailable} when the keys cannot be read.
   *
   * @example
   * await jwtVerify(token, keys.forIssuer(issuer), { issuer });
   */
  forIssuer(issuer: string): JWTVerifyGetKey {
    return async (header, token) => {
      const loaded = await this.load(issuer, false);
      try {
        return await loaded.keys(header, token);
      } catch (e) {
        // The issuer may have rotated its keys: look again, but not for every forged kid.
        if (!(e instanceof errors.JWKSNoMatchingKey)) throw e;
        if (this.clock() - loaded.fetchedAt < this.policy.cooldownMs) throw e;
        return (await this.load(issuer, true)).keys(header, token);
      }
    };
  }

  private load(issuer: string, refresh: boolean): Promise<Loaded> {
    const now = this.clock();
    const cached = this.entries.get(issuer);
    if (cached !== undefined) {
      const age = cached.settledAt === undefined ? 0 : now - cached.settledAt;
      const fresh = cached.failed
        ? age < this.policy.failureTtlMs
        : !refresh && age < this.policy.keysMaxAgeMs;
      if (cached.settledAt === undefined || fresh) return cached.result;
    }
    const entry: Entry = { result: this.fetchKeys(issuer), settledAt: undefined, failed: false };
    entry.result.then(
      () => {
        entry.settledAt = this.clock();
      },
      () => {
        entry.settledAt = this.clock();
        entry.failed = true;
      },
    );
    this.entries.set(issuer, entry);
    return entry.result;
  }

  private async fetchKeys(issuer: string): Promise<Loaded> {
    const origin = new URL(issuer).origin;
    const discovery = await this.getJson(
      `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
      origin,
      "discovery",
    );
    const jwksUri = (discovery as { jwks_uri?: unknown } | null)?.jwks_uri;
    if (typeof jwksUri !== "string") throw new IssuerKeysUnavailable("no jwks_uri in discovery");
    let jwksUrl: URL;
    try {
      jwksUrl = new URL(jwksUri);
    } catch {
      throw new IssuerKeysUnavailable("jwks_uri is not a URL");
    }
    if (jwksUrl.origin !== origin) throw new IssuerKeysUnavailable("jwks_uri is on another origin");
    const jwks = await this.getJson(jwksUrl.href, origin, "the JWKS");
    try {
      return { keys: createLocalJWKSet(jwks as JSONWebKeySet), fetchedAt: this.clock() };
    } catch {
      throw new IssuerKeysUnavailable("the JWKS is not a valid key set");
    }
  }

  // GET a JSON document, following redirects only within `origin`, bounded in time and size.
  private async getJson(url: string, origin: string, what: string): Promise<unknown> {
    let current = url;
    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        res = await fetch(current, {
          redirect: "manual",
          signal: AbortSignal.timeout(this.policy.timeoutMs),
        });
      } catch {
        throw new IssuerKeysUnavailable(`${what} could not be fetched`);
      }
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const location = res.headers.get("location");
        const next = location === null ? undefined : URL.parse(location, current);
        if (next === undefined || next === null)
          throw new IssuerKeysUnavailable(`${what} redirected nowhere`);
        if (next.origin !== origin) {
          throw new IssuerKeysUnavailable(
            `${what} redirected off the issuer's origin, to ${next.origin}: not followed`,
          );
        }
        if (hop >= this.policy.maxRedirects) throw new IssuerKeysUnavailable(`${what} redirected too often`);
        current = next.href;
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new IssuerKeysUnavailable(`${what} answered HTTP ${res.status}`);
      }
      const text = await readCapped(res, this.policy.maxBytes);
      if (text === undefined)
        throw new IssuerKeysUnavailable(`${what} is larger than ${this.policy.maxBytes} bytes`);
      try {
        return JSON.parse(text);
      } catch {
        throw new IssuerKeysUnavailable(`${what} is not JSON`);
      }
    }
  }
}

// The body as text, or undefined once it passes `maxBytes` (the rest is not read).
async function readCapped(res: Response, maxBytes: number): Promise<string | undefined> {
  if (Number(res.headers.get("content-length")) > maxBytes) {
    await res.body?.cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body === null) return "";
  try {
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return undefined;
      chunks.push(chunk);
    }
  } catch {
    throw new IssuerKeysUnavailable("the issuer's answer broke off");
  }
  return Buffer.concat(chunks).toString("utf8");
}
