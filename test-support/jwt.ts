/**
 * JSON Web Tokens for tests, made with node:crypto alone (not with the library under test), and a
 * key server on loopback that serves a JSON Web Key Set, counts its fetches and can be made to
 * fail or hang.
 */
import { createHmac, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An asymmetric signing key with its `kid`. */
export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256' | 'EdDSA';
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** A fresh key pair for `alg`. */
export function signingKey(kid: string, alg: SigningKey['alg'] = 'RS256'): SigningKey {
  const pair =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  return { kid, alg, ...pair };
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Seconds since the epoch, as `exp`, `nbf` and `iat` count. */
export const now = () => Math.floor(Date.now() / 1000);

/** A token signed by `key`, with `header` fields and `claims` over the defaults (`exp` one hour away). */
export function signJwt(key: SigningKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  const head = base64url(JSON.stringify({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header }));
  const body = base64url(JSON.stringify({ exp: now() + 3600, iat: now(), ...claims }));
  const input = `${head}.${body}`;
  const hash = key.alg === 'EdDSA' ? null : 'sha256';
  const signature = sign(hash, Buffer.from(input), key.alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey);
  return `${input}.${base64url(signature)}`;
}

/** An HMAC-SHA256 token with `secret` (a shared secret, or, for key confusion, a public key's PEM). */
export function signHs256(secret: string | Buffer, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', ...header }));
  const body = base64url(JSON.stringify({ exp: now() + 3600, iat: now(), ...claims }));
  const input = `${head}.${body}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/** An unsigned token (`alg: none`), which no verifier may accept. */
export function unsignedJwt(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT', ...header }))}.${base64url(JSON.stringify({ exp: now() + 3600, ...claims }))}.`;
}

/** The public JWK of a key, as a key set lists it. */
export function publicJwk(key: SigningKey): Record<string, unknown> {
  return { ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: key.alg, use: 'sig' };
}

/** A private key's PEM, for code that reads keys from configuration. */
export function privatePem(key: SigningKey): string {
  return createPrivateKey(key.privateKey.export({ format: 'pem', type: 'pkcs8' })).export({ format: 'pem', type: 'pkcs8' }) as string;
}

/** What the key server does with the next fetches. */
export type KeyServerMode = 'serve' | 'fail' | 'hang';

/** A JWKS endpoint on 127.0.0.1. */
export interface LocalKeyServer {
  url: string;
  /** Fetches answered or held so far. */
  fetches: number;
  keys: SigningKey[];
  mode: KeyServerMode;
  close(): Promise<void>;
}

/** Starts a key server publishing `keys` at `/.well-known/jwks.json`. */
export async function startKeyServer(keys: SigningKey[]): Promise<LocalKeyServer> {
  const held: ServerResponse[] = [];
  const state: LocalKeyServer = {
    url: '',
    fetches: 0,
    keys,
    mode: 'serve',
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    state.fetches++;
    if (state.mode === 'hang') return void held.push(res);
    if (state.mode === 'fail') return void res.writeHead(500).end('down');
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify({ keys: state.keys.map(publicJwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  return state;
}

/** A loopback URL nothing listens on (a key server that is down). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/.well-known/jwks.json`;
}
