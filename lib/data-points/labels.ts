import type { CustomDataPoint } from "@/lib/service/schemas";

/** Client-safe: one set of words for a data point's fields, shared by the lookup result and the watch list. */
export const dataPointFieldLabels = {
  id: "Id",
  name: "Name",
  dataType: "Data type",
  modelType: "Model",
  description: "Description",
  isPublic: "Public",
} as const satisfies Record<keyof CustomDataPoint, string>;
