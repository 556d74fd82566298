import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/lib/db";
import { consoleUsers, type ConsoleUser } from "@/lib/db/schema";
import { hashPassword } from "./password";
import { newPasswordSchema, newUserSchema, type NewUserInput } from "./schemas";

export type PublicUser = Pick<ConsoleUser, "id" | "email" | "name" | "role" | "disabled" | "createdAt">;

const publicColumns = {
  id: consoleUsers.id,
  email: consoleUsers.email,
  name: consoleUsers.name,
  role: consoleUsers.role,
  disabled: consoleUsers.disabled,
  createdAt: consoleUsers.createdAt,
};

const byEmail = (email: string) => eq(sql`lower(${consoleUsers.email})`, email.trim().toLowerCase());

export class UserExistsError extends Error {
  override name = "UserExistsError";
}

/** Like every write here, takes the caller's transaction as `executor` so the change commits with its audit record. */
export async function createUser(input: NewUserInput, executor?: Executor): Promise<PublicUser> {
  const data = newUserSchema.parse(input);
  const db = executor ?? (await getDb());
  const [row] = await db
    .insert(consoleUsers)
    .values({ email: data.email, name: data.name, role: data.role, passwordHash: await hashPassword(data.password) })
    .onConflictDoNothing()
    .returning(publicColumns);
  if (!row) throw new UserExistsError(`A user with the email ${data.email} already exists.`);
  return row;
}

/** The full row, hash included: only for the sign-in check. */
export async function findUserForSignIn(email: string): Promise<ConsoleUser | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(consoleUsers).where(byEmail(email)).limit(1);
  return row;
}

export async function findUserById(id: string): Promise<PublicUser | undefined> {
  const db = await getDb();
  const [row] = await db.select(publicColumns).from(consoleUsers).where(eq(consoleUsers.id, id)).limit(1);
  return row;
}

export async function listUsers(): Promise<PublicUser[]> {
  const db = await getDb();
  return db.select(publicColumns).from(consoleUsers).orderBy(asc(consoleUsers.email));
}

/** Returns false when no user has that email. */
export async function setUserDisabled(email: string, disabled: boolean, executor?: Executor): Promise<boolean> {
  const db = executor ?? (await getDb());
  const rows = await db
    .update(consoleUsers)
    .set({ disabled, updatedAt: new Date() })
    .where(byEmail(email))
    .returning({ id: consoleUsers.id });
  return rows.length > 0;
}

export async function setUserPassword(email: string, password: string, executor?: Executor): Promise<boolean> {
  const passwordHash = await hashPassword(newPasswordSchema.parse(password));
  const db = executor ?? (await getDb());
  const rows = await db
    .update(consoleUsers)
    .set({ passwordHash, updatedAt: new Date() })
    .where(byEmail(email))
    .returning({ id: consoleUsers.id });
  return rows.length > 0;
}

export async function countUsers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(consoleUsers);
  return row?.n ?? 0;
}
