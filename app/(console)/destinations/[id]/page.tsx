import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";

import { DestinationPage } from "@/components/destinations/destination-page";
import { requireRole } from "@/lib/auth/guards";
import { destinationDeliveryStats, listDestinationAttempts } from "@/lib/destinations/attempts";
import { getDestinationDetail } from "@/lib/destinations/destinations";
import { attemptFiltersSchema } from "@/lib/destinations/schemas";

export const metadata: Metadata = { title: "Destination" };

type Search = Record<string, string | string[] | undefined>;
const first = (search: Search) =>
  Object.fromEntries(Object.entries(search).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));

export default async function DestinationDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Search>;
}) {
  const user = await requireRole("support");
  const id = z.uuid().safeParse((await params).id);
  // An id that is not a UUID names no destination: the same page as one that was removed.
  const destination = id.success ? await getDestinationDetail(id.data, user.role) : null;
  if (!destination) notFound();
  const filters = attemptFiltersSchema.parse(first(await searchParams));
  // Database reads only, each over one destination's index: cheap enough to await before the first paint.
  const [attempts, day, week] = await Promise.all([
    listDestinationAttempts(destination.id, filters),
    destinationDeliveryStats(destination.id, "24h"),
    destinationDeliveryStats(destination.id, "7d"),
  ]);
  return (
    <DestinationPage
      destination={destination}
      isAdmin={user.role === "admin"}
      attempts={attempts}
      filters={filters}
      stats={[day, week]}
    />
  );
}
