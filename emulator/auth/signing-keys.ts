import { randomBytes } from "node:crypto";
import type { CryptoKey, JWK } from "jose";
import { exportJWK, generateKeyPair, importJWK } from "jose";

/**
 * An ES256 key pair with its key id and public JWK.
 *
 * @example
 * const key: SigningKey = await loadOrCreateSigningKey(db, "issuerSigningKey");
 * const jwks = { keys: [key.publicJwk] };
 */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public half as a JWK (with `kid`, `alg`, `use`), as JWKS endpoints publish it. */
  publicJwk: JWK;
}

/**
 * Where the key is kept between runs (the emulator's meta table).
 *
 * @example
 * // The Database is one; a test can keep keys in a map instead.
 * const meta = new Map<string, string>();
 * const store: KeyStore = { getMeta: (k) => meta.get(k), setMeta: (k, v) => void meta.set(k, v) };
 * const key = await loadOrCreateSigningKey(store, "apiSigningKey");
 */
export interface KeyStore {
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
}

const ALG = "ES256";

/**
 * Loads the ES256 key stored under `name`, or generates one and stores it. Keys are made at run time
 * (never committed); with `--data` they persist, so tokens minted before a restart stay valid.
 *
 * @example
 * const apiKey = await loadOrCreateSigningKey(db, "apiSigningKey");
 */
export async function loadOrCreateSigningKey(store: KeyStore, name: string): Promise<SigningKey> {
  const saved = store.getMeta(name);
  if (saved !== undefined) {
    const jwk = JSON.parse(saved) as JWK & { kid: string };
    const { d: _d, ...pub } = jwk;
    return {
      kid: jwk.kid,
      privateKey: (await importJWK(jwk, ALG)) as CryptoKey,
      publicKey: (await importJWK(pub, ALG)) as CryptoKey,
      publicJwk: pub,
    };
  }
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomBytes(8).toString("hex");
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: "sig" };
  store.setMeta(name, JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: ALG, use: "sig" }));
  return { kid, privateKey, publicKey, publicJwk };
}
