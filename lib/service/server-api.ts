import "server-only";

import { baseUrlFor } from "./base-urls";
import { basicAuth, serviceRequest, type RequestOptions } from "./http";
import type { Region } from "./regions";
import type { ServiceResult } from "./result";
import { trackActionResponseSchema, type TrackActionResponse } from "./schemas";

export type ServerCredentials = { region: Region; serverKey: string };

/** SERVICE-FACTS: action codes match this; anything else is refused before a request is sent. */
export const ACTION_CODE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Tracks an action (spec 4.4) with the server API secret key; the answer's `token` is valid for
 * 10 minutes on the client API. A POST is sent once: a retry could record the action twice.
 */
export function trackAction(
  creds: ServerCredentials,
  userId: string,
  action: string,
  body: { scope?: string } = {},
  options?: RequestOptions,
): Promise<ServiceResult<TrackActionResponse>> {
  if (!ACTION_CODE.test(action)) throw new Error(`Invalid action code: ${action}`);
  const url = `${baseUrlFor(creds.region)}/users/${encodeURIComponent(userId)}/actions/${action}`;
  // The logged path leaves the user id out: it is the tenant's personal data, not ours to keep in logs.
  const path = `/users/{userId}/actions/${action}`;
  return serviceRequest(
    { region: creds.region, method: "POST", url, path, authorization: basicAuth(creds.serverKey), body },
    trackActionResponseSchema,
    options,
  );
}
