import { PageHeader } from "@/components/ui/card";

/** The heading and its description need no data, so the loading state shows them too and nothing below moves. */
export function UsersPageHeader() {
  return (
    <PageHeader
      title="Users"
      description="A user's current authenticators, read from the service. Expired credentials are already gone; email addresses and phone numbers arrive masked."
    />
  );
}
