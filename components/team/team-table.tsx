import { Badge } from "@/components/ui/badge";
import { CardField, CardsOrTable, RowCard, TableSkeleton, Td } from "@/components/ui/table";
import type { TeamMember } from "@/lib/team/types";

import { ManageMember } from "./manage-member";
import { EmailText, LastSignIn, MemberStatus, MemberTokens, RoleBadge, SignInMethodText } from "./member-details";

const columns = ["Name", "Email", "Role", "Sign-in", "Last sign-in", "API tokens", "Status", "Actions"];

function Name({ member, isYou }: { member: TeamMember; isYou: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-medium break-words text-slate-900 dark:text-slate-100">{member.name}</span>
      {isYou ? <Badge tone="info">You</Badge> : null}
    </span>
  );
}

/**
 * Every console user (never empty: the signed-in admin is one) with how they sign in and their state; each Manage
 * opens what may change.
 */
export function TeamTable({ members, currentUserId }: { members: TeamMember[]; currentUserId: string }) {
  // Eight columns need a wide window: below `xl` (1280 px) each user is a card.
  return (
    <CardsOrTable
      label="Team"
      columns={columns}
      cards={members.map((m) => (
        <RowCard
          key={m.id}
          testId="team-member"
          title={<Name member={m} isYou={m.id === currentUserId} />}
          subtitle={<EmailText email={m.email} />}
          action={<ManageMember member={m} isYou={m.id === currentUserId} />}
        >
          <CardField term="Role">
            <RoleBadge role={m.role} />
          </CardField>
          <CardField term="Status">
            <MemberStatus member={m} />
          </CardField>
          <CardField term="Sign-in">
            <SignInMethodText signIn={m.signIn} />
          </CardField>
          <CardField term="Last sign-in">
            <LastSignIn iso={m.lastSignInAt} />
          </CardField>
          <CardField term="API tokens">
            <MemberTokens tokens={m.apiTokens} />
          </CardField>
        </RowCard>
      ))}
      rows={members.map((m) => (
        <tr key={m.id} data-testid="team-member">
          <Td className="whitespace-normal!">
            <Name member={m} isYou={m.id === currentUserId} />
          </Td>
          <Td className="whitespace-normal!">
            <EmailText email={m.email} />
          </Td>
          <Td>
            <RoleBadge role={m.role} />
          </Td>
          <Td className="whitespace-normal!">
            <SignInMethodText signIn={m.signIn} />
          </Td>
          <Td>
            <LastSignIn iso={m.lastSignInAt} />
          </Td>
          <Td className="whitespace-normal!">
            <MemberTokens tokens={m.apiTokens} />
          </Td>
          <Td>
            <MemberStatus member={m} />
          </Td>
          <Td>
            <ManageMember member={m} isYou={m.id === currentUserId} />
          </Td>
        </tr>
      ))}
    />
  );
}

/** The table's shape while the users are read. */
export function TeamTableSkeleton() {
  return <TableSkeleton columns={columns} rows={4} />;
}
