import { Link } from "@/components/ui/link";

export function AccessDenied() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="text-center">
        <p className="text-sm font-semibold text-red-700 dark:text-red-400">403</p>
        <h1 className="mt-2 text-2xl font-semibold">You do not have access to this page</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          It needs the admin role. Ask a console administrator if you need it.
        </p>
        <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline dark:text-indigo-300">
          Go to the overview
        </Link>
      </div>
    </main>
  );
}
