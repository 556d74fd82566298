CREATE TABLE "api_token_addresses" (
	"token_id" uuid NOT NULL,
	"address" text NOT NULL,
	"first_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_token_addresses_token_id_address_pk" PRIMARY KEY("token_id","address")
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"role" "console_role" NOT NULL,
	"scopes" text[] NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" uuid,
	"user_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"revoked_by" uuid,
	"last_used_at" timestamp (3) with time zone,
	"last_used_address" text,
	CONSTRAINT "api_tokens_scopes_check" CHECK (cardinality("api_tokens"."scopes") > 0 and "api_tokens"."scopes" <@ array['api', 'metrics']::text[])
);
--> statement-breakpoint
ALTER TABLE "api_token_addresses" ADD CONSTRAINT "api_token_addresses_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."console_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_revoked_by_console_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_name_lower_idx" ON "api_tokens" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_secret_hash_idx" ON "api_tokens" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");