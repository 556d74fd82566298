import type { Metadata } from "next";

import { CreateApiToken } from "@/components/tokens/create-token";
import { TokenTable } from "@/components/tokens/token-table";
import { TokensPageHeader } from "@/components/tokens/tokens-page-header";
import { requireRole } from "@/lib/auth/guards";
import { listApiTokens } from "@/lib/tokens/tokens";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  await requireRole("admin");
  // A cheap read of the console's own database, so the page awaits it; loading.tsx covers the wait.
  const tokens = await listApiTokens();
  return (
    <>
      <TokensPageHeader actions={<CreateApiToken />} />
      <TokenTable tokens={tokens} />
    </>
  );
}
