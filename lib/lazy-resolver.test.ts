import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

import { isChunkLoadFailure, lazyZodResolver } from "./lazy-resolver";

const schema = z.object({ name: z.string().min(1, "Enter a name.") });
type Values = z.input<typeof schema>;
const options = { fields: {}, shouldUseNativeValidation: false };
const chunkError = () => Object.assign(new Error("Loading chunk 123 failed."), { name: "ChunkLoadError" });

describe("lazyZodResolver", () => {
  it("validates with the schema it loads, loading it once", async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver<Values>(load);
    expect((await resolver({ name: "" }, undefined, options)).errors.name?.message).toBe("Enter a name.");
    expect(await resolver({ name: "Ann" }, undefined, options)).toEqual({ values: { name: "Ann" }, errors: {} });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("lets the form go as it is when the schema's code cannot be fetched, and fetches it again next time", async () => {
    const load = vi.fn().mockRejectedValueOnce(chunkError()).mockResolvedValue(schema);
    const resolver = lazyZodResolver<Values>(load);
    expect(await resolver({ name: "" }, undefined, options)).toEqual({ values: { name: "" }, errors: {} });
    expect((await resolver({ name: "" }, undefined, options)).errors.name?.message).toBe("Enter a name.");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("throws any other error rather than taking the values as valid", async () => {
    const resolver = lazyZodResolver<Values>(async () => {
      throw new TypeError("m.signInSchema is undefined");
    });
    await expect(resolver({ name: "" }, undefined, options)).rejects.toThrow("m.signInSchema is undefined");
  });
});

describe("isChunkLoadFailure", () => {
  it.each([
    ["webpack's ChunkLoadError", chunkError()],
    ["Turbopack's failed chunk", new Error("Failed to load chunk /_next/static/chunks/a1.js from module 42")],
    [
      "a dynamic import the browser could not fetch",
      new TypeError("Failed to fetch dynamically imported module: /x.js"),
    ],
    ["Safari's failed module script", new TypeError("Importing a module script failed.")],
  ])("recognises %s", (_name, error) => expect(isChunkLoadFailure(error)).toBe(true));

  it.each([
    ["an error of the code itself", new TypeError("Cannot read properties of undefined (reading 'parse')")],
    ["a value that is not an error", "Loading chunk 1 failed."],
  ])("does not take %s for one", (_name, error) => expect(isChunkLoadFailure(error)).toBe(false));
});
