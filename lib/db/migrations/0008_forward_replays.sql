CREATE TABLE "forward_replays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"destination_id" uuid NOT NULL,
	"filters" text NOT NULL,
	"total" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "forward_deliveries" ADD COLUMN "replay_id" uuid;--> statement-breakpoint
ALTER TABLE "forward_replays" ADD CONSTRAINT "forward_replays_destination_id_forward_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."forward_destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_replays" ADD CONSTRAINT "forward_replays_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_deliveries" ADD CONSTRAINT "forward_deliveries_replay_id_forward_replays_id_fk" FOREIGN KEY ("replay_id") REFERENCES "public"."forward_replays"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forward_deliveries_replay_idx" ON "forward_deliveries" USING btree ("replay_id") WHERE "forward_deliveries"."replay_id" is not null;