import type { UseFormRegisterReturn } from "react-hook-form";

import { Field, fieldControlProps, Input } from "./input";

/** What the fields need of a form (react-hook-form's useForm) that has a `name` and a `url`. */
type NameAndUrlForm = {
  register: (field: "name" | "url") => UseFormRegisterReturn;
  formState: { errors: { name?: { message?: string }; url?: { message?: string } } };
};

/**
 * The name and the URL of something the console posts to (a forwarding destination, an alert notice
 * target), as an "Add …" form asks for them: the name focused first, the URL typed as a URL (no
 * autocompletion, no spell check) with a hint on what lib/outbound allows. Ids are `<id>-name`, `<id>-url`.
 */
export function NameAndUrlFields({
  id,
  form,
  placeholders,
  urlHint,
}: {
  id: string;
  form: NameAndUrlForm;
  placeholders: { name: string; url: string };
  urlHint: string;
}) {
  const { name, url } = form.formState.errors;
  return (
    <>
      <Field id={`${id}-name`} label="Name" error={name?.message}>
        <Input
          {...fieldControlProps(`${id}-name`, name?.message)}
          autoComplete="off"
          autoFocus
          placeholder={placeholders.name}
          {...form.register("name")}
        />
      </Field>
      <Field id={`${id}-url`} label="URL" error={url?.message} hint={urlHint}>
        <Input
          {...fieldControlProps(`${id}-url`, url?.message, true)}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholders.url}
          {...form.register("url")}
        />
      </Field>
    </>
  );
}
