export { enforceSecurity } from './enforce';
export type { OAuth2Grant, SecurityVerifier, SecurityVerifiers } from './enforce';
