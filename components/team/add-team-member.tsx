"use client";

import { UserPlus } from "lucide-react";

import { AddDialog, useAddDialog } from "@/components/ui/add-dialog";
import { Field, fieldControlProps, Input, Select } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { addTeamMemberAction } from "@/lib/team/actions";
import type { AddTeamMemberInput } from "@/lib/team/schemas";

import { PasswordLinkView } from "./password-link-view";

const blank: AddTeamMemberInput = { email: "", name: "", role: "support" };

/** "Add a user": a local user without a password, then the one-time link with which they set it. */
export function AddTeamMember() {
  const dialog = useAddDialog({
    schema: () => import("@/lib/team/schemas").then((m) => m.addTeamMemberSchema),
    blank,
    submit: addTeamMemberAction,
    added: (result, values) => {
      toast.success(`Added ${values.name.trim()}.`);
      return { name: values.name.trim(), email: values.email.trim(), link: result.link };
    },
  });
  const {
    register,
    formState: { errors },
  } = dialog.form;

  return (
    <AddDialog
      dialog={dialog}
      trigger={{ label: "Add a user", icon: UserPlus }}
      title="Add a user"
      shown={(added) => ({
        title: `Set-password link for ${added.name}`,
        view: <PasswordLinkView name={added.name} email={added.email} link={added.link} onDone={dialog.close} />,
      })}
      submitLabel="Add user"
      intro={
        <p className="text-sm text-slate-600 dark:text-slate-400">
          They sign in with a password of their own, set through a one-time link you send them. People who sign in
          through single sign-on need no account here: theirs is made at their first sign-in.
        </p>
      }
    >
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
        <Input {...fieldControlProps("team-name", errors.name?.message)} autoComplete="off" {...register("name")} />
      </Field>
      <Field
        id="team-role"
        label="Role"
        error={errors.role?.message}
        hint="Support: read-only (overview, data points, webhook log, users). Admin: everything, this page included."
      >
        <Select {...fieldControlProps("team-role", errors.role?.message, true)} {...register("role")}>
          <option value="support">Support</option>
          <option value="admin">Admin</option>
        </Select>
      </Field>
    </AddDialog>
  );
}
