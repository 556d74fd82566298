import { ShieldX } from "lucide-react";

import { Link } from "@/components/ui/link";
import { getSessionUser, type SessionUser } from "@/lib/auth/guards";
import { navItemsFor } from "@/lib/auth/roles";

import { GoBack } from "./go-back";

const link = "font-medium text-indigo-700 underline dark:text-indigo-300";

/** The 403 page's words: why, what to do, and the pages the visitor's role opens. */
export function AccessDeniedMessage({ user }: { user: SessionUser | null }) {
  const pages = user ? navItemsFor(user.role) : [];
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <ShieldX aria-hidden="true" className="mx-auto size-10 text-red-700 dark:text-red-400" />
      <p className="mt-3 text-sm font-semibold text-red-700 dark:text-red-400">403</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900 dark:text-slate-100">
        You do not have access to this page
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        It needs the admin role{user ? <>; you are signed in with the {user.role} role</> : null}. Ask a console
        administrator for it if your work needs this page.
      </p>
      <div className="mt-5 flex flex-wrap items-center justify-center gap-3 text-sm">
        <GoBack />
        <Link href="/" className={link}>
          Go to the overview
        </Link>
      </div>
      {pages.length > 0 ? (
        <nav aria-label="Pages you can open" className="mt-8 text-left">
          <h2 className="text-center text-sm font-semibold text-slate-900 dark:text-slate-100">Pages you can open</h2>
          <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
            {pages.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  className="block rounded-md px-3 py-2 text-sm font-medium text-indigo-700 ring-1 ring-slate-200 hover:bg-slate-50 dark:text-indigo-300 dark:ring-slate-700 dark:hover:bg-slate-800"
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}

/** The visitor, if the session can be read (a refusal never fails for want of it). */
export const visitor = () => getSessionUser().catch(() => null);

/** Inside the console's layout (a page's own refusal): the layout draws the sidebar and header. */
export async function ConsoleAccessDenied() {
  return <AccessDeniedMessage user={await visitor()} />;
}

/** A refusal outside any layout of the console's (app/forbidden.tsx): the message on its own. */
export async function AccessDenied() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <AccessDeniedMessage user={await visitor()} />
    </main>
  );
}
