export { bearerToken } from './bearer-token.js';
export { issuerKeys } from './issuer-keys.js';
export { type JwtChecks, type JwtVerdict, jwtSubject } from './jwt-subject.js';
