export { enforceSecurity } from './enforce';
export type { EnforceSecurityOptions, OAuth2Grant, SecurityVerifier, SecurityVerifiers } from './enforce';
export { jwtVerifier } from './jwt-verifier';
export type { JwtAlgorithm, JwtPayload, JwtVerifierOptions } from './jwt-verifier';
export type { KeyServerOptions } from './key-server';
