// Requests to AWS endpoints behind IAM, signed with SigV4: apart from the root so that only what
// signs loads the signer.
export { type SigV4FetchOptions, sigV4Fetch } from './sigv4/sigv4-fetch.js';
