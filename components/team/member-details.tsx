"use client";

import { Badge } from "@/components/ui/badge";
import { useNow } from "@/components/ui/now";
import { Time } from "@/components/ui/time";
import type { Role } from "@/lib/auth/roles";
import type { SignInMethod, TeamMember } from "@/lib/team/types";

/** A user's details as the team table, its phone cards and the manage dialog all show them. */

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={role === "admin" ? "info" : "neutral"}>{role}</Badge>;
}

export function MemberStatus({ member }: { member: Pick<TeamMember, "disabled" | "lockedOut"> }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {member.disabled ? <Badge tone="danger">Disabled</Badge> : null}
      {member.lockedOut ? (
        <Badge
          tone="warning"
          title="Refused or slowed at sign-in after failed attempts. Unlock lets every address try again at once."
        >
          Locked out
        </Badge>
      ) : null}
      {member.disabled || member.lockedOut ? null : <Badge tone="success">Active</Badge>}
    </span>
  );
}

export function SignInMethodText({ signIn }: { signIn: SignInMethod }) {
  const now = useNow();
  const host = signIn.ssoHost ? (
    <span className="break-words text-slate-600 dark:text-slate-400">({signIn.ssoHost})</span>
  ) : null;
  if (host) return signIn.password ? <>Password and single sign-on {host}</> : <>Single sign-on {host}</>;
  if (signIn.password) return <>Password</>;
  const expired = signIn.linkExpiresAt !== null && now !== null && Date.parse(signIn.linkExpiresAt) <= now;
  return (
    <>
      Invited — password not set
      <span className="block text-xs text-slate-600 dark:text-slate-400">
        {signIn.linkExpiresAt === null ? (
          "no link: make a new one"
        ) : expired ? (
          <>
            link expired <Time iso={signIn.linkExpiresAt} />: make a new one
          </>
        ) : (
          <>
            link expires <Time iso={signIn.linkExpiresAt} />
          </>
        )}
      </span>
    </>
  );
}

/** An email that, when it must wrap, wraps before its @ (and a part too long for its line, within it). */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  return (
    <span className="break-words">
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}

export function LastSignIn({ iso }: { iso: string | null }) {
  return iso ? <Time iso={iso} /> : <span className="text-slate-600 dark:text-slate-400">Never</span>;
}

/** The member's working API tokens by name, or None. */
export function MemberTokens({ tokens }: { tokens: TeamMember["apiTokens"] }) {
  if (tokens.length === 0) return <span className="text-slate-600 dark:text-slate-400">None</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {tokens.map((token) => (
        <Badge key={token.name} tone="neutral" title={`Acts as ${token.role}`}>
          {token.name}
        </Badge>
      ))}
    </span>
  );
}
