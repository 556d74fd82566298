import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { CardField, CardsOrTable, RowCard, TableSkeleton, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { ApiTokenRevocationReason, ApiTokenStatus, ApiTokenView } from "@/lib/tokens/types";

import { RevokeToken } from "./revoke-token";

const columns = ["Name", "Role", "Scopes", "Created by", "Created", "Last used", "Expires", "Status", "Actions"];

const statusWords: Record<ApiTokenStatus, { text: string; tone: BadgeTone; title?: string }> = {
  active: { text: "Active", tone: "success" },
  expired: { text: "Expired", tone: "neutral" },
  revoked: { text: "Revoked", tone: "neutral" },
  inactive: {
    text: "Not working",
    tone: "warning",
    title: "The user it acts for is disabled or no longer holds its role.",
  },
};

/** Why a token was revoked, beside its badge; an admin's own revocation needs no words. */
const revokedBecause: Record<ApiTokenRevocationReason, string | null> = {
  revoked: null,
  user_disabled: "its user was disabled",
  sessions_revoked: "its user's sessions were revoked",
  role_lowered: "its user's role was lowered",
};

function Status({ token }: { token: ApiTokenView }) {
  const words = statusWords[token.status];
  const reason = token.status === "revoked" && token.revokedReason ? revokedBecause[token.revokedReason] : null;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <Badge tone={words.tone} title={words.title}>
        {words.text}
      </Badge>
      {reason ? <span className="text-xs whitespace-normal text-slate-600 dark:text-slate-400">{reason}</span> : null}
    </span>
  );
}

function LastUse({ token }: { token: ApiTokenView }) {
  if (!token.lastUsedAt) return <span className="text-slate-600 dark:text-slate-400">Never</span>;
  return (
    <span>
      <Time iso={token.lastUsedAt} />
      {token.lastUsedAddress ? (
        <span className="text-slate-600 dark:text-slate-400"> from {token.lastUsedAddress}</span>
      ) : null}
    </span>
  );
}

const creator = (token: ApiTokenView) => token.createdBy ?? "CLI (operator)";
const expires = (token: ApiTokenView) =>
  token.expiresAt ? <Time iso={token.expiresAt} /> : <span className="text-slate-600 dark:text-slate-400">Never</span>;
const revoke = (token: ApiTokenView) =>
  token.status === "revoked" ? null : <RevokeToken id={token.id} name={token.name} />;

/** Every token with what it may do and when it was last used; never its secret. */
export function TokenTable({ tokens }: { tokens: ApiTokenView[] }) {
  if (tokens.length === 0) {
    return (
      <EmptyState title="No API tokens yet">
        Create one for a script or a monitor. Its secret is shown once; the list then shows its name, role and last use.
      </EmptyState>
    );
  }
  // Nine columns need a wide window: below `xl` (1280 px) each token is a card.
  return (
    <CardsOrTable
      label="API tokens"
      columns={columns}
      cards={tokens.map((t) => (
        <RowCard
          key={t.id}
          testId="api-token"
          title={<p className="font-medium break-words text-slate-900 dark:text-slate-100">{t.name}</p>}
          subtitle={`${t.role} · ${t.scopes.join(", ")}`}
          action={revoke(t)}
        >
          <CardField term="Status">
            <Status token={t} />
          </CardField>
          <CardField term="Created" className="break-words">
            <Time iso={t.createdAt} /> by {creator(t)}
          </CardField>
          <CardField term="Last used" className="break-words">
            <LastUse token={t} />
          </CardField>
          <CardField term="Expires">{expires(t)}</CardField>
        </RowCard>
      ))}
      rows={tokens.map((t) => (
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
          <Td>{revoke(t)}</Td>
        </tr>
      ))}
    />
  );
}

/** The table's shape while the tokens are read. */
export function TokenTableSkeleton() {
  return <TableSkeleton columns={columns} rows={3} />;
}
