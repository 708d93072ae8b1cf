/** The token of an `Authorization: Bearer <token>` header; `undefined` for any other header or none. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}
