"use client";
import { UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldControlProps, Input, Select } from "@/components/ui/input";
import { callAction } from "@/lib/call-action";
import { lazyZodResolver } from "@/lib/lazy-resolver";
import type { AddTeamMemberInput } from "@/lib/team/schemas";
import type { PasswordLink } from "@/lib/team/types";
import { PasswordLinkView } from "./password-link-view";
import type { TeamActions } from "./team-actions";

const blank: AddTeamMemberInput = { email: "", name: "", role: "support" };

/** "Add a user": a local user without a password, then the one-time link with which they set it. */
export function AddTeamMember({ addAction }: { addAction: TeamActions["add"] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [added, setAdded] = useState<{ name: string; email: string; link: PasswordLink } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddTeamMemberInput>({ resolver: lazyZodResolver(() => import("@/lib/team/schemas").then((m) => m.addTeamMemberSchema)), defaultValues: blank });

  const close = () => {
    setOpen(false);
    setAdded(null);
    setFailure(null);
    reset(blank);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await callAction(() => addAction(values));
    if (!result.ok) {
      if ("field" in result && result.field) setError(result.field, { message: result.error }, { shouldFocus: true });
      else setFailure(result.error);
      return;
    }
    setAdded({ name: values.name.trim(), email: values.email.trim(), link: result.link });
    toast.success(`Added ${values.name.trim()}.`);
    router.refresh();
  });

  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <UserPlus aria-hidden="true" className="size-4" />
        Add a user
      </Button>
      <Dialog open={open} onClose={close} title={added ? `Set-password link for ${added.name}` : "Add a user"}>
        {added ? (
          <PasswordLinkView name={added.name} email={added.email} link={added.link} onDone={close} />
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Add a user">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              They sign in with a password of their own, set through a one-time link you send them. People who sign in through single sign-on
              need no account here: theirs is made at their first sign-in.
            </p>
            {failure ? <Alert tone="danger">{failure}</Alert> : null}
            <Field id="team-email" label="Email" error={errors.email?.message}>
              <Input
                {...fieldControlProps("team-email", errors.email?.message)}
                type="email"
                autoComplete="off"
                autoFocus
                {...register("email")}
              />
            </Field>
            <Field id="team-name" label="Name" error={errors.name?.message}>
              <Input
                {...fieldControlProps("team-name", errors.name?.message)}
                autoComplete="off"
                {...register("name")}
              />
            </Field>
            <Field
              id="team-role"
              label="Role"
              error={errors.role?.message}
              hint="Support: read-only (overview, data points, webhook log, users). Admin: everything, this page included."
            >
              <Select
                {...fieldControlProps("team-role", errors.role?.message, true)}
                {...register("role")}
              >
                <option value="support">Support</option>
                <option value="admin">Admin</option>
              </Select>
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close} disabled={isSubmitting}>
                Cancel
              </Button>
              <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
                {isSubmitting ? "Adding…" : "Add user"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
