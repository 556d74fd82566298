CREATE TABLE "alert_notice_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_notice_targets_name_key" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "alert_notices" ADD COLUMN "target_id" uuid;--> statement-breakpoint
ALTER TABLE "alert_notice_targets" ADD CONSTRAINT "alert_notice_targets_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notices" ADD CONSTRAINT "alert_notices_target_id_alert_notice_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."alert_notice_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_notices_target_idx" ON "alert_notices" USING btree ("target_id") WHERE "alert_notices"."target_id" is not null;