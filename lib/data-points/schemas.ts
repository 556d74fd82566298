import { z } from "zod";

/** Client-safe input schemas for the data point pages. */
export const dataPointIdSchema = z
  .string()
  .trim()
  .min(1, "Enter a data point id.")
  .max(200, "Data point ids have at most 200 characters.");

export const lookUpDataPointSchema = z.object({ id: dataPointIdSchema });
export type LookUpDataPointInput = z.infer<typeof lookUpDataPointSchema>;

export const watchDataPointSchema = z.object({ connectionId: z.uuid(), dataPointId: dataPointIdSchema });
export type WatchDataPointInput = z.infer<typeof watchDataPointSchema>;

export const refreshWatchesSchema = z.object({ connectionId: z.uuid() });
