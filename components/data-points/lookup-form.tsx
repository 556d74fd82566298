"use client";

import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import type { LookUpDataPointInput } from "@/lib/data-points/schemas";
import { lazyZodResolver } from "@/lib/lazy-resolver";

import { lookupFormRow } from "./loading-shapes";

/**
 * Looking up puts the id in the URL, so a lookup can be shared as a link. `linkError` says why the id a
 * link carried was not looked up (too long, say); the field keeps that id so it can be corrected.
 */
export function DataPointLookupForm({ initialId, linkError }: { initialId: string; linkError?: string }) {
  const router = useRouter();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LookUpDataPointInput>({
    resolver: lazyZodResolver(() => import("@/lib/data-points/schemas").then((m) => m.lookUpDataPointSchema)),
    defaultValues: { id: initialId },
    errors: linkError ? { id: { type: "link", message: linkError } } : undefined,
  });
  return (
    <form
      role="search"
      noValidate
      className={lookupFormRow}
      onSubmit={handleSubmit(({ id }) => router.push(`/data-points?id=${encodeURIComponent(id)}`))}
    >
      <div className="flex-1">
        <Field id="data-point-id" label="Data point id" error={errors.id?.message}>
          <Input
            id="data-point-id"
            placeholder="dp_loyalty_tier"
            spellCheck={false}
            aria-invalid={errors.id ? true : undefined}
            {...register("id")}
          />
        </Field>
      </div>
      <Button type="submit">Look up</Button>
    </form>
  );
}
