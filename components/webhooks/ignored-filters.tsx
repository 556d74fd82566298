import { Alert } from "@/components/ui/card";
import type { IgnoredFilter } from "@/lib/webhooks/filters";

/** Says which hand-edited parameters were left out, by the form's labels, instead of refusing the view. */
export function IgnoredFilters({ ignored }: { ignored: IgnoredFilter[] }) {
  if (ignored.length === 0) return null;
  return (
    <div className="mb-4">
      <Alert
        tone="warning"
        title={ignored.length === 1 ? "One filter in the link was left out" : "Some filters in the link were left out"}
      >
        <ul className="list-inside list-disc">
          {ignored.map((f) => (
            <li key={f.name}>
              {f.label}: {f.message}
              {/[.?!]$/.test(f.message) ? "" : "."}
            </li>
          ))}
        </ul>
        The other filters apply.
      </Alert>
    </div>
  );
}
