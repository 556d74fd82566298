import { AccessDenied } from "@/components/shell/access-denied";

export default function Forbidden() {
  return <AccessDenied />;
}
