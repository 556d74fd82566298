import { describe, expect, it } from "vitest";

import { customDataPointSchema } from "@/lib/service/schemas";

import { dataPointFieldLabels } from "./labels";

describe("dataPointFieldLabels", () => {
  it("has a label in words for every field of a data point", () => {
    expect(Object.keys(dataPointFieldLabels).sort()).toEqual(Object.keys(customDataPointSchema.shape).sort());
    expect(dataPointFieldLabels).toMatchObject({ dataType: "Data type", modelType: "Model", isPublic: "Public" });
  });
});
