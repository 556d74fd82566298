import { Badge } from "@/components/ui/badge";
import { Table, TableHead, TableSkeleton, Td } from "@/components/ui/table";
import type { TeamMember } from "@/lib/team/types";
import { ManageMember } from "./manage-member";
import { EmailText, LastSignIn, MemberStatus, RoleBadge, SignInMethodText } from "./member-details";
import type { TeamActions } from "./team-actions";

const columns = ["Name", "Email", "Role", "Sign-in", "Last sign-in", "Status", "Actions"];

function Name({ member, isYou }: { member: TeamMember; isYou: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-medium break-words text-slate-900 dark:text-slate-100">{member.name}</span>
      {isYou ? <Badge tone="info">You</Badge> : null}
    </span>
  );
}

/** Every console user (never empty: the signed-in admin is one) with how they sign in and their state; each Manage opens what may change. */
export function TeamTable({ members, currentUserId, actions }: { members: TeamMember[]; currentUserId: string; actions: TeamActions }) {
  return (
    <>
      {/* Seven columns need a wide window: below `xl` (1280 px) each user is a card. */}
      <ul aria-label="Team" className="space-y-3 xl:hidden">
        {members.map((m) => (
          <li key={m.id} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800" data-testid="team-member">
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <Name member={m} isYou={m.id === currentUserId} />
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  <EmailText email={m.email} />
                </p>
              </div>
              <div className="shrink-0">
                <ManageMember member={m} isYou={m.id === currentUserId} actions={actions} />
              </div>
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
              <dt className="text-slate-600 dark:text-slate-400">Role</dt>
              <dd>
                <RoleBadge role={m.role} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Status</dt>
              <dd>
                <MemberStatus member={m} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Sign-in</dt>
              <dd className="text-slate-800 dark:text-slate-200">
                <SignInMethodText signIn={m.signIn} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Last sign-in</dt>
              <dd className="text-slate-800 dark:text-slate-200">
                <LastSignIn iso={m.lastSignInAt} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      <Table caption="Team" className="hidden xl:block">
        <TableHead columns={columns} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {members.map((m) => (
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
              <Td>
                <MemberStatus member={m} />
              </Td>
              <Td>
                <ManageMember member={m} isYou={m.id === currentUserId} actions={actions} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

/** The table's shape while the users are read. */
export function TeamTableSkeleton() {
  return <TableSkeleton columns={columns} rows={4} />;
}
