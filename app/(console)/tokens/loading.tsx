import { CreateApiToken } from "@/components/tokens/create-token";
import { TokenTableSkeleton } from "@/components/tokens/token-table";
import { TokensPageHeader } from "@/components/tokens/tokens-page-header";

import { createApiTokenAction } from "./actions";

export default function TokensLoading() {
  return (
    <>
      <TokensPageHeader actions={<CreateApiToken createAction={createApiTokenAction} />} />
      <div aria-busy="true">
        <span className="sr-only">Loading the API tokens…</span>
        <TokenTableSkeleton />
      </div>
    </>
  );
}
