import { regionLabels, type Region } from "./regions";
import type { ServiceFailure } from "./result";

/** The sentence a page shows for a failed service call. Client-safe; never includes a key. */
export function describeServiceFailure(
  failure: Pick<ServiceFailure, "kind" | "status">,
  connection: { name: string; region: Region },
): string {
  switch (failure.kind) {
    case "unauthorized":
      return `The ${regionLabels[connection.region]} region refused the management key stored for ${connection.name} (HTTP 401). Replace the key on the connection's page.`;
    case "not_found":
      return `The service has no such resource in ${connection.name} (HTTP 404).`;
    case "rate_limited":
      return `The service is rate-limiting ${connection.name} (HTTP 429). Wait a moment and try again.`;
    case "unavailable":
      return failure.status
        ? `The ${regionLabels[connection.region]} region answered with an error (HTTP ${failure.status}). Try again in a moment.`
        : `The ${regionLabels[connection.region]} region could not be reached in time. Try again in a moment.`;
    case "invalid_response":
      return `The service answered in a form the console does not understand (HTTP ${failure.status}). Nothing was changed by the console.`;
  }
}
