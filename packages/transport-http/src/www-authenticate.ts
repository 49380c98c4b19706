/** What a `WWW-Authenticate: Bearer ...` challenge names (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  error?: string;
}

/** The Bearer challenge's parameters of a response; empty for none or another scheme. */
export function bearerChallengeOf(response: Response): BearerChallenge {
  const header = response.headers.get("www-authenticate");
  if (header === null) return {};
  const [scheme, rest] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "bearer" || rest === undefined) return {};
  const challenge: BearerChallenge = {};
  const metadata = parameter(header, "resource_metadata");
  if (metadata !== undefined && URL.canParse(metadata)) challenge.resourceMetadataUrl = new URL(metadata);
  const scope = parameter(header, "scope");
  if (scope !== undefined) challenge.scope = scope;
  const error = parameter(header, "error");
  if (error !== undefined) challenge.error = error;
  return challenge;
}

/** A parameter's value, quoted or token; undefined when absent or empty. */
function parameter(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}=(?:"([^"]*)"|([^\\s,]+))`, "i").exec(header);
  const value = match?.[1] ?? match?.[2];
  return value === undefined || value === "" ? undefined : value;
}
