import { Link } from "@/components/ui/link";

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="text-center">
        <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
        <h1 className="mt-2 text-2xl font-semibold">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">There is nothing at this address.</p>
        <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline dark:text-indigo-300">
          Go to the console
        </Link>
      </div>
    </main>
  );
}
