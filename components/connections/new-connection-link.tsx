import { Link } from "@/components/ui/link";

/** The way to add a tenant: in the connections heading and again in the empty list. */
export function NewConnectionLink() {
  return (
    <Link
      href="/connections/new"
      className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
    >
      New connection
    </Link>
  );
}
