import type { UserAuthenticator } from "@/lib/service/schemas";

/** Client-safe shapes of the users page. */
export type AuthenticatorLookup =
  { kind: "ok"; authenticators: UserAuthenticator[] } | { kind: "no_server_key" } | { kind: "failed"; message: string };
