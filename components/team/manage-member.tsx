"use client";

import { useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { callAction, type ActionResult } from "@/lib/call-action";
import {
  changeRoleAction,
  createPasswordLinkAction,
  revokeSessionsAction,
  setDisabledAction,
  unlockSignInAction,
} from "@/lib/team/actions";
import type { PasswordLink, TeamMember } from "@/lib/team/types";

import { EmailText, MemberStatus, MemberTokens, RoleBadge, SignInMethodText } from "./member-details";
import { PasswordLinkView } from "./password-link-view";

type Confirmable = "demote" | "disable" | "revoke";
type View = { kind: "menu" } | { kind: "confirm"; what: Confirmable } | { kind: "link"; link: PasswordLink };

/** Whether the console may make a set-password link for this user: not for one who signs in only by single sign-on. */
const takesPasswordLink = (m: TeamMember) => !m.disabled && (m.signIn.password || m.signIn.ssoHost === null);

/**
 * What a confirmation adds about the member's API tokens that the change revokes (for good: enabling or promoting
 * again revives none).
 */
function tokensEnding(tokens: TeamMember["apiTokens"], isYou: boolean): string {
  if (tokens.length === 0) return "";
  const names = tokens.map((t) => t.name).join(", ");
  const whose = isYou ? "Your" : "Their";
  return ` ${whose} API ${tokens.length === 1 ? "token" : "tokens"} (${names}) ${tokens.length === 1 ? "is" : "are"} revoked for good.`;
}

function confirmation(
  what: Confirmable,
  member: TeamMember,
  isYou: boolean,
): { title: string; body: string; button: string } {
  const name = member.name;
  const adminTokens = member.apiTokens.filter((t) => t.role === "admin");
  switch (what) {
    case "demote":
      return {
        title: isYou ? "Make yourself support?" : `Make ${name} support?`,
        body: isYou
          ? `You lose admin access (connections, email OTP, audit, this page) and are signed out at once; sign in again as support. Another admin can make you admin again.${tokensEnding(adminTokens, true)}`
          : `${name} loses admin access (connections, email OTP, audit, this page) and is signed out everywhere; they sign in again as support.${tokensEnding(adminTokens, false)}`,
        button: "Make support",
      };
    case "disable":
      return {
        title: `Disable ${name}?`,
        body: `${name} is signed out everywhere at their next request and cannot sign in, with a password or single sign-on, until an admin enables the account again. A pending set-password link stops working.${tokensEnding(member.apiTokens, false)}`,
        button: "Disable",
      };
    case "revoke":
      return {
        title: isYou ? "Sign yourself out everywhere?" : `Sign ${name} out everywhere?`,
        body: isYou
          ? `Every one of your sessions ends at its next request, this one included. You can sign in again at once.${tokensEnding(member.apiTokens, true)}`
          : `Every session of ${name} ends at its next request, on every device. They can sign in again at once.${tokensEnding(member.apiTokens, false)}`,
        button: "Sign out everywhere",
      };
  }
}

/**
 * A user's row action: a dialog with who they are and what an admin may change. Demoting, disabling and
 * signing out are confirmed first; a failure (the last admin, say) is said in the dialog, which stays open.
 */
export function ManageMember({ member, isYou }: { member: TeamMember; isYou: boolean }) {
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>({ kind: "menu" });
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // One request at a time, however fast a button is pressed.
  const sending = useRef(false);
  const userId = member.id;

  const close = () => {
    setOpen(false);
    setView({ kind: "menu" });
    setFailure(null);
  };

  async function run<Fields extends object>(
    action: () => Promise<ActionResult<Fields>>,
    done: string,
    next?: (result: Fields) => View,
  ) {
    if (sending.current) return;
    sending.current = true;
    setPending(true);
    setFailure(null);
    try {
      const result = await callAction(action);
      if (!result.ok) {
        setFailure(result.error);
        return;
      }
      toast.success(done);
      if (next) setView(next(result));
      else close();
    } finally {
      sending.current = false;
      setPending(false);
    }
  }

  const confirmed: Record<Confirmable, () => Promise<void>> = {
    demote: () => run(() => changeRoleAction({ userId, role: "support" }), `${member.name} is now support.`),
    disable: () => run(() => setDisabledAction({ userId, disabled: true }), `Disabled ${member.name}.`),
    revoke: () => run(() => revokeSessionsAction({ userId }), `Signed ${member.name} out everywhere.`),
  };
  const ask = (what: Confirmable) => {
    setFailure(null);
    setView({ kind: "confirm", what });
  };

  const problem = failure ? (
    <div className="mb-4">
      <Alert tone="danger">{failure}</Alert>
    </div>
  ) : null;

  let title = member.name;
  let body: React.ReactNode;
  if (view.kind === "link") {
    title = `Set-password link for ${member.name}`;
    body = <PasswordLinkView name={member.name} email={member.email} link={view.link} onDone={close} />;
  } else if (view.kind === "confirm") {
    const text = confirmation(view.what, member, isYou);
    title = text.title;
    body = (
      <>
        {problem}
        <p className="text-sm text-slate-700 dark:text-slate-300">{text.body}</p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" autoFocus onClick={() => setView({ kind: "menu" })} disabled={pending}>
            Back
          </Button>
          <Button variant="danger" onClick={confirmed[view.what]} disabled={pending} aria-busy={pending}>
            {pending ? "Working…" : text.button}
          </Button>
        </div>
      </>
    );
  } else {
    body = (
      <>
        {problem}
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">Email</dt>
          <dd className="text-slate-900 dark:text-slate-100">
            <EmailText email={member.email} />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Role</dt>
          <dd>
            <RoleBadge role={member.role} />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Sign-in</dt>
          <dd className="text-slate-900 dark:text-slate-100">
            <SignInMethodText signIn={member.signIn} />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">API tokens</dt>
          <dd>
            <MemberTokens tokens={member.apiTokens} />
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Status</dt>
          <dd>
            <MemberStatus member={member} />
          </dd>
        </dl>
        {member.signIn.ssoHost ? (
          <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
            Single sign-on sets this person&apos;s role again from their groups at {member.signIn.ssoHost} each time
            they sign in; change the groups there for a lasting change.
          </p>
        ) : null}
        {/* The role button has autoFocus: back from a confirmation, the keyboard lands on the first change again. */}
        <div className="mt-5 flex flex-wrap gap-2" role="group" aria-label={`Changes to ${member.name}`}>
          {member.role === "admin" ? (
            <Button variant="secondary" size="sm" autoFocus disabled={pending} onClick={() => ask("demote")}>
              Make support
            </Button>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              autoFocus
              disabled={pending}
              onClick={() => run(() => changeRoleAction({ userId, role: "admin" }), `${member.name} is now an admin.`)}
            >
              Make admin
            </Button>
          )}
          {member.disabled ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={pending}
              onClick={() => run(() => setDisabledAction({ userId, disabled: false }), `Enabled ${member.name}.`)}
            >
              Enable
            </Button>
          ) : isYou ? null : (
            <Button variant="secondary" size="sm" disabled={pending} onClick={() => ask("disable")}>
              Disable
            </Button>
          )}
          <Button variant="secondary" size="sm" disabled={pending} onClick={() => ask("revoke")}>
            Sign out everywhere
          </Button>
          {member.lockedOut ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={pending}
              onClick={() => run(() => unlockSignInAction({ userId }), `${member.name} may sign in again.`)}
            >
              Unlock sign-in
            </Button>
          ) : null}
          {takesPasswordLink(member) ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={pending}
              onClick={() =>
                run(
                  () => createPasswordLinkAction({ userId }),
                  `New set-password link for ${member.name}.`,
                  (r) => ({ kind: "link", link: r.link }),
                )
              }
            >
              New set-password link
            </Button>
          ) : null}
        </div>
        <div className="mt-5 flex justify-end">
          <Button variant="ghost" onClick={close}>
            Close
          </Button>
        </div>
      </>
    );
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Manage ${member.name}`}>
        Manage
      </Button>
      <Dialog open={open} onClose={close} title={title}>
        {/* The dialog sits in a table cell, whose no-wrap it would inherit. */}
        <div className="whitespace-normal">{body}</div>
      </Dialog>
    </>
  );
}
