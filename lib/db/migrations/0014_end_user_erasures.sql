CREATE TABLE "end_user_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"connection_id" uuid,
	"connection_name" text,
	"actor_id" uuid,
	"actor_email" text,
	"mentions_erased" boolean DEFAULT false NOT NULL,
	"erased" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "end_user_erasures_user_scope_idx" ON "end_user_erasures" USING btree ("user_id",coalesce("connection_id"::text, ''));--> statement-breakpoint
CREATE INDEX "webhook_events_without_user_idx" ON "webhook_events" USING btree ("connection_id") WHERE "webhook_events"."user_id" is null;--> statement-breakpoint
CREATE INDEX "webhook_rejections_event_idx" ON "webhook_rejections" USING btree ("connection_id","event_id") WHERE "webhook_rejections"."event_id" is not null;