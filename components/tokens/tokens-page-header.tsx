import { PageHeader } from "@/components/ui/card";
import { API_TOKEN_PREFIX } from "@/lib/tokens/constants";

/** The tokens page's heading, shared with its loading state; `actions` is the create button. */
export function TokensPageHeader({ actions }: { actions?: React.ReactNode }) {
  return (
    <PageHeader
      title="API tokens"
      description={
        <>
          Bearer tokens for scripts and monitoring: <code>Authorization: Bearer {API_TOKEN_PREFIX}…</code> works on the
          console&rsquo;s /api routes with the token&rsquo;s role, never on its pages. A token acts for the admin who
          made it and stops working when it is revoked, expires, or that admin is disabled or loses the role.
        </>
      }
      actions={actions}
    />
  );
}
