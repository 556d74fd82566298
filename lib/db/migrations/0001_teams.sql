ALTER TABLE "console_users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "session_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "password_setup_token_hash" text;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "password_setup_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_oidc_idx" ON "console_users" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_password_setup_idx" ON "console_users" USING btree ("password_setup_token_hash");--> statement-breakpoint
CREATE INDEX "login_attempts_email_ip_idx" ON "login_attempts" USING btree ("email","ip","attempted_at");