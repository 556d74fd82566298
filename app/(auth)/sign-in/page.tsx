import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/guards";
import { safeCallbackPath } from "@/lib/auth/callback";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl);
  if (await getSessionUser()) redirect(callbackPath);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src="/icon.svg" alt="" width={40} height={40} className="mx-auto" />
          <h1 className="mt-4 text-2xl font-semibold tracking-tight">Sign in to Tenant Console</h1>
          <p className="mt-1 text-sm text-slate-600">For tenant administrators and support staff.</p>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <SignInForm callbackPath={callbackPath} />
        </div>
      </div>
    </main>
  );
}
