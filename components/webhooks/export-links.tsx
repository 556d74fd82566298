import { Download } from "lucide-react";

/** CSV and NDJSON download links for a log endpoint and its filters (the whole filtered set, streamed). */
export function ExportLinks({ endpoint, query }: { endpoint: string; query: string }) {
  return (
    <>
      {(["csv", "ndjson"] as const).map((format) => (
        <a
          key={format}
          className="inline-flex items-center gap-1 whitespace-nowrap rounded-md px-2.5 py-1.5 font-medium text-indigo-700 dark:text-indigo-300 ring-1 ring-slate-300 hover:bg-slate-50"
          href={`${endpoint}?format=${format}${query ? `&${query}` : ""}`}
        >
          <Download aria-hidden="true" className="size-4" /> Export {format.toUpperCase()}
        </a>
      ))}
    </>
  );
}
