import "server-only";

import { z } from "zod";

import type { OidcConfig } from "./oidc-config";

/**
 * The provider's discovery document, and the check that an ID token comes from the configured issuer: openid-client
 * never compares the document's issuer with CONSOLE_OIDC_ISSUER, and fills Microsoft's multi-tenant `{tenantid}` in
 * from the token itself (docs/sign-in-and-teams.md, "Single sign-on").
 */

const discoverySchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
});

export type DiscoveryDocument = z.infer<typeof discoverySchema>;

export class DiscoveryError extends Error {
  override name = "DiscoveryError";
}

/** The discovery document at `url`; a DiscoveryError (with a reason fit for a log) otherwise. */
export async function fetchDiscovery(url: string, timeoutMs: number): Promise<DiscoveryDocument> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      cache: "no-store",
      headers: { accept: "application/json" },
    });
  } catch (error) {
    throw new DiscoveryError(error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw new DiscoveryError(`HTTP ${response.status}`);
  const parsed = discoverySchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new DiscoveryError("not a discovery document");
  return parsed.data;
}

/** A provider's issuer seldom changes: one look per 10 minutes, and only for an issuer that needs it. */
const ISSUER_TTL_MS = 10 * 60_000;
const discoveredIssuers = new Map<string, { at: number; issuer: string }>();

async function discoveredIssuer(wellKnownUrl: string, timeoutMs: number): Promise<string> {
  const cached = discoveredIssuers.get(wellKnownUrl);
  if (cached && Date.now() - cached.at < ISSUER_TTL_MS) return cached.issuer;
  const { issuer } = await fetchDiscovery(wellKnownUrl, timeoutMs);
  discoveredIssuers.set(wellKnownUrl, { at: Date.now(), issuer });
  return issuer;
}

/**
 * Whether an ID token's `iss` is the configured issuer, character for character; `<issuer>/` passes only when the
 * configured issuer's discovery document names itself so (as Auth0 does; fetched at most once per 10 minutes). A
 * document that does not answer throws a DiscoveryError: a failed sign-in rather than a refusal.
 */
export async function issuerIsConfigured(
  iss: string,
  config: Pick<OidcConfig, "issuer" | "wellKnownUrl">,
  timeoutMs: number,
): Promise<boolean> {
  if (iss === config.issuer) return true;
  const withSlash = `${config.issuer}/`;
  if (iss !== withSlash) return false;
  return (await discoveredIssuer(config.wellKnownUrl, timeoutMs)) === withSlash;
}
