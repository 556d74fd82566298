import { Alert } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import type { AuthenticatorLookup } from "@/lib/users/types";

import { AuthenticatorTable } from "./authenticator-table";

/** The answer to one lookup: the table, or why there is none; streams in when the service answers. */
export async function AuthenticatorLookupResult({
  userId,
  lookup: pending,
  connectionId,
}: {
  userId: string;
  lookup: Promise<AuthenticatorLookup>;
  connectionId: string;
}) {
  const lookup = await pending;
  switch (lookup.kind) {
    case "ok":
      return <AuthenticatorTable userId={userId} authenticators={lookup.authenticators} />;
    case "no_server_key":
      return (
        <Alert tone="warning" title="This connection has no server API secret key">
          Looking up authenticators needs the tenant&apos;s server key.{" "}
          <Link className="font-medium underline" href={`/connections/${connectionId}`}>
            Add it on the connection&apos;s page
          </Link>
          .
        </Alert>
      );
    case "failed":
      return <Alert tone="danger">{lookup.message}</Alert>;
  }
}
