import { CreateApiToken } from "@/components/tokens/create-token";
import { TokenTableSkeleton } from "@/components/tokens/token-table";
import { TokensPageHeader } from "@/components/tokens/tokens-page-header";

export default function TokensLoading() {
  return (
    <>
      <TokensPageHeader actions={<CreateApiToken />} />
      <div aria-busy="true">
        <span className="sr-only">Loading the API tokens…</span>
        <TokenTableSkeleton />
      </div>
    </>
  );
}
