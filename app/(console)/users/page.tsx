import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { NoConnection } from "@/components/connections/no-connection";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, EmptyState, PageHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { requireRole } from "@/lib/auth/guards";
import { getSelectedConnection } from "@/lib/connections/current";
import type { UserAuthenticator } from "@/lib/service";
import { lookUpUserAuthenticators } from "@/lib/users/users";
import { userIdSchema } from "@/lib/users/schemas";
import type { AuthenticatorLookup } from "@/lib/users/types";

export const metadata: Metadata = { title: "Users" };

function describeDevice(a: UserAuthenticator): string {
  return a.webauthnCredential?.name ?? ([a.deviceName, a.devicePlatform].filter(Boolean).join(" · ") || a.email || a.phoneNumber || "—");
}

function AuthenticatorTable({ userId, authenticators }: { userId: string; authenticators: UserAuthenticator[] }) {
  if (authenticators.length === 0) {
    return (
      <EmptyState title={`No current authenticators for “${userId}”`}>
        The user has none enrolled, or every one has expired. Expired credentials are removed at once; their{" "}
        <Link className="font-medium text-indigo-700 underline" href={`/webhooks?userId=${encodeURIComponent(userId)}`}>
          authenticator.expired events
        </Link>{" "}
        are in the webhook log.
      </EmptyState>
    );
  }
  return (
    <Table caption={`Current authenticators of ${userId}`}>
      <thead>
        <tr>
          <Th>Method</Th>
          <Th>Type</Th>
          <Th>Device, passkey or address</Th>
          <Th>Created</Th>
          <Th>Last verified</Th>
          <Th>Id</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {authenticators.map((a) => (
          <tr key={a.userAuthenticatorId}>
            <Td>
              <span className="flex items-center gap-2">
                <Badge tone="info">{a.verificationMethod}</Badge>
                {a.isDefault ? <Badge tone="success">default</Badge> : null}
              </span>
            </Td>
            <Td>{a.authenticatorType ?? "—"}</Td>
            <Td>{describeDevice(a)}</Td>
            <Td>
              <Time iso={a.createdAt} />
            </Td>
            <Td>
              <Time iso={a.lastVerifiedAt ?? a.verifiedAt} />
            </Td>
            <Td className="font-mono text-xs text-slate-600">{a.userAuthenticatorId}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function LookupResult({ userId, lookup, connectionId }: { userId: string; lookup: AuthenticatorLookup; connectionId: string }) {
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

export default async function UsersPage({ searchParams }: { searchParams: Promise<{ userId?: string | string[] }> }) {
  const user = await requireRole("support");
  const { userId: raw } = await searchParams;
  const connection = await getSelectedConnection();
  const header = (
    <PageHeader
      title="Users"
      description="A user's current authenticators, read from the service. Expired credentials are already gone; email addresses and phone numbers arrive masked."
    />
  );
  if (!connection) {
    return (
      <>
        <NoConnection title="Users" isAdmin={user.role === "admin"} />
      </>
    );
  }
  const asked = typeof raw === "string" ? userIdSchema.safeParse(raw) : null;
  // A lookup records an action at the tenant. Only a link inside the console (or one typed or
  // bookmarked) runs at once; from anywhere else, a sibling subdomain included, or from a browser that
  // does not say where the request came from, the link only fills in the form.
  const fromConsole = ["same-origin", "none"].includes((await headers()).get("sec-fetch-site") ?? "");
  const lookup = asked?.success && fromConsole ? await lookUpUserAuthenticators(user, connection, asked.data) : null;
  return (
    <>
      {header}
      <div className="space-y-6">
        <form method="get" className="flex max-w-xl items-end gap-3" role="search" aria-label="Look up a user">
          <div className="flex-1">
            <Field
              id="userId"
              label={`User id in ${connection.name}`}
              hint="Exact, as your application sends it. A lookup records the action console_authenticator_lookup for this id at the tenant."
              error={asked && !asked.success ? asked.error.issues[0]?.message : undefined}
            >
              <Input
                id="userId"
                name="userId"
                defaultValue={typeof raw === "string" ? raw : ""}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={asked && !asked.success ? true : undefined}
                aria-describedby={asked && !asked.success ? "userId-error" : "userId-hint"}
              />
            </Field>
          </div>
          <Button type="submit">Look up</Button>
        </form>
        <div aria-live="polite">
          {lookup && asked?.success ? <LookupResult userId={asked.data} lookup={lookup} connectionId={connection.id} /> : null}
          {asked?.success && !fromConsole ? (
            <Alert title="Opened from a link">
              Nothing was looked up yet. Press Look up to read the authenticators of “{asked.data}” in {connection.name}.
            </Alert>
          ) : null}
        </div>
      </div>
    </>
  );
}
