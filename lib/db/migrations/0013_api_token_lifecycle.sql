CREATE TYPE "public"."api_token_revocation_reason" AS ENUM('revoked', 'user_disabled', 'sessions_revoked', 'role_lowered');--> statement-breakpoint
CREATE TABLE "api_token_guesses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"guessed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "revoked_reason" "api_token_revocation_reason";--> statement-breakpoint
CREATE INDEX "api_token_guesses_address_idx" ON "api_token_guesses" USING btree ("address","guessed_at");--> statement-breakpoint
UPDATE "api_tokens" SET "revoked_reason" = 'revoked' WHERE "revoked_at" IS NOT NULL;--> statement-breakpoint
-- Tokens that were only suspended with their user's access end for good, as they would from now on.
UPDATE "api_tokens" t SET "revoked_at" = now(), "revoked_reason" = CASE WHEN u."disabled" THEN 'user_disabled'::"api_token_revocation_reason" ELSE 'role_lowered'::"api_token_revocation_reason" END
FROM "console_users" u
WHERE u."id" = t."user_id" AND t."revoked_at" IS NULL AND (u."disabled" OR (t."role" = 'admin' AND u."role" <> 'admin'));--> statement-breakpoint
-- Bad tokens were counted as failed sign-ins; they are counted apart now.
DELETE FROM "login_attempts" WHERE "email" = '(api token)';
