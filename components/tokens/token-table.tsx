import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Table, TableHead, TableSkeleton, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { ApiTokenStatus, ApiTokenView } from "@/lib/tokens/types";
import { RevokeToken, type RevokeApiTokenAction } from "./revoke-token";

const columns = ["Name", "Role", "Scopes", "Created by", "Created", "Last used", "Expires", "Status", "Actions"];

const statusWords: Record<ApiTokenStatus, { text: string; tone: BadgeTone; title?: string }> = {
  active: { text: "Active", tone: "success" },
  expired: { text: "Expired", tone: "neutral" },
  revoked: { text: "Revoked", tone: "neutral" },
  inactive: { text: "Not working", tone: "warning", title: "The user it acts for is disabled or no longer holds its role." },
};

function Status({ token }: { token: ApiTokenView }) {
  const words = statusWords[token.status];
  return (
    <Badge tone={words.tone} title={words.title}>
      {words.text}
    </Badge>
  );
}

function LastUse({ token }: { token: ApiTokenView }) {
  if (!token.lastUsedAt) return <span className="text-slate-600 dark:text-slate-400">Never</span>;
  return (
    <span>
      <Time iso={token.lastUsedAt} />
      {token.lastUsedAddress ? <span className="text-slate-600 dark:text-slate-400"> from {token.lastUsedAddress}</span> : null}
    </span>
  );
}

const creator = (token: ApiTokenView) => token.createdBy ?? "CLI (operator)";
const expires = (token: ApiTokenView) => (token.expiresAt ? <Time iso={token.expiresAt} /> : <span className="text-slate-600 dark:text-slate-400">Never</span>);
const revoke = (token: ApiTokenView, action: RevokeApiTokenAction) =>
  token.status === "revoked" ? null : <RevokeToken id={token.id} name={token.name} revokeAction={action} />;

/** Every token with what it may do and when it was last used; never its secret. */
export function TokenTable({ tokens, revokeAction }: { tokens: ApiTokenView[]; revokeAction: RevokeApiTokenAction }) {
  if (tokens.length === 0) {
    return (
      <EmptyState title="No API tokens yet">
        Create one for a script or a monitor. Its secret is shown once; the list then shows its name, role and last use.
      </EmptyState>
    );
  }
  return (
    <>
      {/* Nine columns need a wide window: below `xl` (1280 px) each token is a card. */}
      <ul aria-label="API tokens" className="space-y-3 xl:hidden">
        {tokens.map((t) => (
          <li key={t.id} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800" data-testid="api-token">
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900 dark:text-slate-100">{t.name}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {t.role} · {t.scopes.join(", ")}
                </p>
              </div>
              <div className="shrink-0">{revoke(t, revokeAction)}</div>
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
              <dt className="text-slate-600 dark:text-slate-400">Status</dt>
              <dd>
                <Status token={t} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Created</dt>
              <dd className="break-words text-slate-800 dark:text-slate-200">
                <Time iso={t.createdAt} /> by {creator(t)}
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Last used</dt>
              <dd className="break-words text-slate-800 dark:text-slate-200">
                <LastUse token={t} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Expires</dt>
              <dd className="text-slate-800 dark:text-slate-200">{expires(t)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <Table caption="API tokens" className="hidden xl:block">
        <TableHead columns={columns} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {tokens.map((t) => (
            <tr key={t.id} data-testid="api-token">
              <Td className="font-medium whitespace-normal! break-words text-slate-900 dark:text-slate-100">{t.name}</Td>
              <Td>{t.role}</Td>
              <Td>{t.scopes.join(", ")}</Td>
              <Td className="whitespace-normal! break-words">{creator(t)}</Td>
              <Td>
                <Time iso={t.createdAt} />
              </Td>
              <Td className="whitespace-normal!">
                <LastUse token={t} />
              </Td>
              <Td>{expires(t)}</Td>
              <Td>
                <Status token={t} />
              </Td>
              <Td>{revoke(t, revokeAction)}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

/** The table's shape while the tokens are read. */
export function TokenTableSkeleton() {
  return <TableSkeleton columns={columns} rows={3} />;
}
