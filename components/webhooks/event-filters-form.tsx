"use client";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { ALL_CONNECTIONS, ALL_TYPES, FILTER_LABELS, filtersToQuery, KNOWN_EVENT_TYPES, type EventFilters } from "@/lib/webhooks/filters";

const formLayout = "mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4";
const fieldLabel = "block text-xs font-medium text-slate-700";
const foldedFiltersSpan = "sm:col-span-2 lg:col-span-4";
const buttonRow = "flex items-end gap-2 lg:col-span-2";

// Suggestions from SERVICE-FACTS; the service may add values, so the fields stay free text.
const suggestions = {
  verificationMethod: ["SMS", "EMAIL_OTP", "EMAIL_MAGIC_LINK", "AUTHENTICATOR_APP", "PASSKEY", "SECURITY_KEY", "PUSH", "WHATSAPP"],
  devicePlatform: ["IOS", "ANDROID"],
} as const;

const moreFilters = ["userAuthenticatorId", "receivedFrom", "receivedTo", "expiresFrom", "expiresTo"] as const satisfies ReadonlyArray<keyof EventFilters>;

/** The log's filters; submitting puts them in the URL, so a filtered view is a shareable link. */
export function EventFiltersForm({ filters, connections }: { filters: EventFilters; connections: Array<{ id: string; name: string }> }) {
  const router = useRouter();
  const text = (name: keyof EventFilters, placeholder = "") => {
    const list = name in suggestions ? suggestions[name as keyof typeof suggestions] : null;
    return (
      <div>
        <label htmlFor={`f-${name}`} className={fieldLabel}>
          {FILTER_LABELS[name]}
        </label>
        <Input
          id={`f-${name}`}
          name={name}
          defaultValue={String(filters[name] ?? "")}
          placeholder={placeholder}
          list={list ? `f-${name}-values` : undefined}
          autoComplete="off"
        />
        {list ? (
          <datalist id={`f-${name}-values`}>
            {list.map((value) => (
              <option key={value} value={value} />
            ))}
          </datalist>
        ) : null}
      </div>
    );
  };
  const time = (name: keyof EventFilters) => (
    <div>
      <label htmlFor={`f-${name}`} className={fieldLabel}>
        {FILTER_LABELS[name]}
      </label>
      <Input id={`f-${name}`} name={name} type="datetime-local" step="1" defaultValue={toLocalInput(filters[name] as string | undefined)} />
    </div>
  );
  return (
    <form
      role="search"
      aria-label="Filter webhook events"
      className={formLayout}
      onSubmit={(event) => {
        event.preventDefault();
        const values: Record<string, string> = {};
        for (const [key, value] of new FormData(event.currentTarget).entries()) {
          if (typeof value !== "string" || !value) continue;
          values[key] = key.endsWith("From") || key.endsWith("To") ? new Date(value).toISOString() : value;
        }
        const query = filtersToQuery(values);
        router.push(query ? `/webhooks?${query}` : "/webhooks");
      }}
    >
      <div>
        <label htmlFor="f-connectionId" className={fieldLabel}>
          {FILTER_LABELS.connectionId}
        </label>
        <Select id="f-connectionId" name="connectionId" defaultValue={filters.connectionId ?? ALL_CONNECTIONS}>
          <option value={ALL_CONNECTIONS}>All connections</option>
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="f-type" className={fieldLabel}>
          {FILTER_LABELS.type}
        </label>
        <Select id="f-type" name="type" defaultValue={filters.type}>
          {[...new Set<string>([...KNOWN_EVENT_TYPES, filters.type])].filter((t) => t !== ALL_TYPES).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
          <option value={ALL_TYPES}>All types</option>
        </Select>
      </div>
      {text("verificationMethod", "any, e.g. PUSH")}
      {text("devicePlatform", "any, e.g. IOS")}
      <div>
        <label htmlFor="f-userId" className={fieldLabel}>
          {FILTER_LABELS.userId}
        </label>
        <div className="flex gap-2">
          <Input id="f-userId" name="userId" defaultValue={filters.userId ?? ""} />
          <Select aria-label="User id match" name="userIdMatch" defaultValue={filters.userIdMatch} className="w-28">
            <option value="exact">exact</option>
            <option value="prefix">starts with</option>
          </Select>
        </div>
      </div>
      {/* Rarely used filters fold away (on a phone the form would otherwise fill the screen); they stay
          open while one of them is set, so a shared link shows what it filters by. */}
      <details className={foldedFiltersSpan} open={moreFilters.some((name) => filters[name] !== undefined)}>
        <summary className="cursor-pointer text-sm font-medium text-indigo-700">More filters: user authenticator id, time ranges</summary>
        <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {text("userAuthenticatorId")}
          {time("receivedFrom")}
          {time("receivedTo")}
          {time("expiresFrom")}
          {time("expiresTo")}
        </div>
      </details>
      <div className={buttonRow}>
        <Button type="submit">Apply filters</Button>
        <Button variant="ghost" onClick={() => router.push("/webhooks")}>
          Clear
        </Button>
      </div>
    </form>
  );
}

/** The form's shape before its filters are known (loading.tsx): five fields, the folded ones, the buttons. */
export function EventFiltersFormSkeleton() {
  return (
    <div className={formLayout}>
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i}>
          <Skeleton className="mb-1 h-3 w-24" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
      <Skeleton className={`h-5 w-80 max-w-full ${foldedFiltersSpan}`} />
      <div className={buttonRow}>
        <Skeleton className="h-9 w-28" />
        <Skeleton className="h-9 w-16" />
      </div>
    </div>
  );
}

/** datetime-local wants local wall time without a zone. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
