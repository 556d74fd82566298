import { Badge } from "@/components/ui/badge";
import { signatureLabels } from "@/lib/webhooks/format";

export function SignatureBadge({ status }: { status: string }) {
  const info = signatureLabels[status] ?? { label: status, tone: "neutral" as const, title: status };
  return (
    <Badge tone={info.tone} title={info.title}>
      {info.label}
    </Badge>
  );
}
