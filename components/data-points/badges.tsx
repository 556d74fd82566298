import { Badge, type BadgeTone } from "@/components/ui/badge";
import { dataPointFieldLabels } from "@/lib/data-points/labels";

/** Readable names for the enumerations SERVICE-FACTS lists; an unknown value is shown as it came. */
const dataTypes: Record<string, { label: string; tone: BadgeTone }> = {
  text: { label: "Text", tone: "info" },
  number: { label: "Number", tone: "success" },
  boolean: { label: "Yes / no", tone: "warning" },
  multiselect: { label: "Multi-select", tone: "neutral" },
};
const modelTypes: Record<string, string> = { user: "User attribute", action: "Action attribute" };

export function DataTypeBadge({ value }: { value: string }) {
  const known = dataTypes[value];
  return (
    <Badge tone={known?.tone ?? "neutral"} title={`${dataPointFieldLabels.dataType}: ${value}`}>
      {known?.label ?? value}
    </Badge>
  );
}

export function ModelTypeBadge({ value }: { value: string }) {
  return (
    <Badge tone="info" title={`${dataPointFieldLabels.modelType}: ${value}`}>
      {modelTypes[value] ?? value}
    </Badge>
  );
}

const statusTones: Record<string, BadgeTone> = { ok: "success", not_found: "warning", unauthorized: "danger" };
const statusLabels: Record<string, string> = {
  ok: "current",
  not_found: "gone (404)",
  unauthorized: "key refused (401)",
  rate_limited: "rate-limited",
  unavailable: "unreachable",
  invalid_response: "unexpected answer",
};

export function FetchStatusBadge({ value }: { value: string | null }) {
  if (!value) return <Badge>never fetched</Badge>;
  return <Badge tone={statusTones[value] ?? "danger"}>{statusLabels[value] ?? value}</Badge>;
}
