import "server-only";

import { baseUrlFor } from "./base-urls";
import { serviceRequest, type RequestOptions } from "./http";
import type { Region } from "./regions";
import type { ServiceResult } from "./result";
import { userAuthenticatorsSchema, type UserAuthenticator } from "./schemas";

/** GET {base}/client/user-authenticators (spec 4.3) with a token from trackAction (spec 5.2). */
export function getUserAuthenticators(
  region: Region,
  token: string,
  options?: RequestOptions,
): Promise<ServiceResult<UserAuthenticator[]>> {
  const path = "/client/user-authenticators";
  return serviceRequest(
    { region, method: "GET", url: `${baseUrlFor(region)}${path}`, path, authorization: `Bearer ${token}` },
    userAuthenticatorsSchema,
    options,
  );
}
