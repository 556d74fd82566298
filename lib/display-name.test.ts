import { describe, expect, it } from "vitest";

import { newUserSchema } from "@/lib/auth/schemas";
import { createConnectionSchema, updateConnectionSchema } from "@/lib/connections/schemas";
import { addTeamMemberSchema } from "@/lib/team/schemas";

import { controlCharacterMessage, oneLineName } from "./display-name";

const connection = {
  region: "us",
  managementKey: "mgmt_key_0001",
  serverKey: "",
  serverSecondaryKey: "",
  saveUnverified: false,
} as const;

/** Every schema that takes a display name, with a valid input around the name. */
const nameSchemas = {
  "a new connection": (name: string) => createConnectionSchema.safeParse({ ...connection, name }),
  "an edited connection": (name: string) =>
    updateConnectionSchema.safeParse({
      ...connection,
      id: "00000000-0000-4000-8000-000000000001",
      removeServerSecondaryKey: false,
      name,
    }),
  "a new team member": (name: string) =>
    addTeamMemberSchema.safeParse({ email: "nia@example.com", role: "support", name }),
  "a new user (users CLI, bootstrap admin)": (name: string) =>
    newUserSchema.safeParse({ email: "nia@example.com", role: "support", password: "a-long-password", name }),
};

// C0 (line feed, carriage return, tab, escape, NUL), DEL and C1 (NEL, CSI): each inside a name.
const controls = ["\n", "\r", "\t", "\u001b", "\u0000", "\u007f", "\u0085", "\u009b"];

describe.each(Object.entries(nameSchemas))("the name of %s", (_, parse) => {
  it("refuses any control character inside it, saying so", () => {
    for (const control of controls) {
      const result = parse(`Acme${control}curl evil.example`);
      expect(result.success, JSON.stringify(control)).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([controlCharacterMessage]);
    }
  });

  it("accepts names in any script, and trims the ends (where a pasted newline goes)", () => {
    expect(parse("Zoë Ångström – 東京 🚀").success).toBe(true);
    expect(parse("  Acme EU\n").data).toMatchObject({ name: "Acme EU" });
  });
});

describe("oneLineName", () => {
  it("replaces every control character, and leaves the rest", () => {
    expect(oneLineName("Acme\nrm -rf ~\t\u0085x")).toBe("Acme\uFFFDrm -rf ~\uFFFD\uFFFDx");
    expect(oneLineName("Zoë 東京")).toBe("Zoë 東京");
  });
});
