import type { Metadata } from "next";
import { headers } from "next/headers";
import { NoConnection } from "@/components/connections/no-connection";
import { Alert } from "@/components/ui/card";
import { StreamedSection } from "@/components/ui/streamed-section";
import { AuthenticatorTableSkeleton } from "@/components/users/authenticator-table";
import { UserLookupForm } from "@/components/users/lookup-form";
import { AuthenticatorLookupResult } from "@/components/users/lookup-result";
import { UsersPageHeader } from "@/components/users/users-page-header";
import { isRequestFromConsole } from "@/lib/auth/fetch-metadata";
import { requireSelectedConnection } from "@/lib/connections/current";
import { userIdSchema } from "@/lib/users/schemas";
import { lookUpUserAuthenticators } from "@/lib/users/users";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage({ searchParams }: { searchParams: Promise<{ userId?: string | string[] }> }) {
  const { user, connection } = await requireSelectedConnection("support");
  if (!connection) return <NoConnection title="Users" isAdmin={user.role === "admin"} />;
  const { userId: raw } = await searchParams;
  const asked = typeof raw === "string" ? userIdSchema.safeParse(raw) : null;
  const userId = asked?.success ? asked.data : null;
  // A lookup records an action at the tenant, so only a request the signed-in user made here runs it;
  // a link from anywhere else only fills in the form.
  const fromConsole = isRequestFromConsole(await headers());
  return (
    <>
      <UsersPageHeader />
      <div className="space-y-6">
        <UserLookupForm
          connectionName={connection.name}
          userId={typeof raw === "string" ? raw : ""}
          error={asked && !asked.success ? asked.error.issues[0]?.message : undefined}
        />
        <div aria-live="polite">
          {userId !== null && fromConsole ? (
            <StreamedSection key={userId} title="The authenticators" fallback={<AuthenticatorTableSkeleton />}>
              <AuthenticatorLookupResult userId={userId} lookup={lookUpUserAuthenticators(user, connection, userId)} connectionId={connection.id} />
            </StreamedSection>
          ) : null}
          {userId !== null && !fromConsole ? (
            <Alert title="Opened from a link">
              Nothing was looked up yet. Press Look up to read the authenticators of “{userId}” in {connection.name}.
            </Alert>
          ) : null}
        </div>
      </div>
    </>
  );
}
