DROP INDEX "forward_deliveries_pending_idx";--> statement-breakpoint
ALTER TABLE "forward_deliveries" ADD COLUMN "leased_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "include_unverified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "max_per_second" integer;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "rate_next_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "tripped_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "probe_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD COLUMN "signing_problem" text;--> statement-breakpoint
ALTER TABLE "forward_replays" ADD COLUMN "queued" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "forward_replays" ADD COLUMN "queue_cursor" text;--> statement-breakpoint
ALTER TABLE "forward_replays" ADD COLUMN "queued_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "forward_deliveries_destination_due_idx" ON "forward_deliveries" USING btree ("destination_id","due_at") WHERE "forward_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "forward_deliveries_in_flight_idx" ON "forward_deliveries" USING btree ("destination_id","leased_until") WHERE "forward_deliveries"."leased_until" is not null;--> statement-breakpoint
-- Replays made before queuing went in chunks queued everything in their first statement.
UPDATE "forward_replays" SET "queued" = "total", "queued_at" = "created_at";