import type { Metadata } from "next";
import { headers } from "next/headers";

import { NoConnection } from "@/components/connections/no-connection";
import { Alert } from "@/components/ui/card";
import { StreamedSection } from "@/components/ui/streamed-section";
import { AuthenticatorTableSkeleton } from "@/components/users/authenticator-table";
import { EraseUserData } from "@/components/users/erase-user-data";
import { UserLookupForm } from "@/components/users/lookup-form";
import { AuthenticatorLookupResult } from "@/components/users/lookup-result";
import { UsersPageHeader } from "@/components/users/users-page-header";
import { isRequestFromConsole } from "@/lib/auth/fetch-metadata";
import { requireSelectedConnection } from "@/lib/connections/current";
import { decideLookup } from "@/lib/users/lookup-request";
import { lookupRequestSchema } from "@/lib/users/schemas";
import { lookUpUserAuthenticators } from "@/lib/users/users";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { user, connection } = await requireSelectedConnection("support");
  if (!connection) return <NoConnection title="Users" isAdmin={user.role === "admin"} />;
  const params = lookupRequestSchema.parse(await searchParams);
  // A lookup records an action at the tenant, so it runs only when asked for here, in the connection it
  // was asked in: never on a re-render (a server action's, a connection switch's) or a link from elsewhere.
  const decision = decideLookup(params, {
    selectedConnectionId: connection.id,
    requestHeaders: await headers(),
    isRequestFromConsole,
  });
  return (
    <>
      <UsersPageHeader />
      <div className="space-y-6">
        <UserLookupForm
          connectionId={connection.id}
          connectionName={connection.name}
          userId={params.rawUserId}
          error={decision.kind === "invalid" ? decision.message : undefined}
        />
        <div aria-live="polite">
          {decision.kind === "run" ? (
            <StreamedSection
              key={`${connection.id}:${decision.userId}`}
              title="The authenticators"
              fallback={<AuthenticatorTableSkeleton />}
            >
              <AuthenticatorLookupResult
                userId={decision.userId}
                lookup={lookUpUserAuthenticators(user, connection, decision.userId)}
                connectionId={connection.id}
              />
            </StreamedSection>
          ) : null}
          {decision.kind === "ask" ? (
            <Alert title={decision.reason === "link" ? "Opened from a link" : "Not looked up yet"}>
              {decision.reason === "link" ? "Nothing was looked up yet. " : null}Press Look up to read the
              authenticators of “{decision.userId}” in {connection.name}.
            </Alert>
          ) : null}
        </div>
        {user.role === "admin" ? (
          <EraseUserData
            // Afresh for another connection or another user looked up: the id starts as the page's.
            key={`${connection.id}:${params.rawUserId}`}
            connectionId={connection.id}
            connectionName={connection.name}
            userId={params.rawUserId}
          />
        ) : null}
      </div>
    </>
  );
}
