CREATE TYPE "public"."alert_kind" AS ENUM('silence', 'bad_signatures', 'unsigned_events', 'late_events', 'receiver_errors', 'destination_failing');--> statement-breakpoint
CREATE TYPE "public"."alert_state" AS ENUM('open', 'resolved');--> statement-breakpoint
CREATE TYPE "public"."alert_notice_state" AS ENUM('pending', 'sent', 'failed');--> statement-breakpoint
CREATE TABLE "alert_evaluations" (
	"id" integer PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "alert_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"change" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"body" text NOT NULL,
	"state" "alert_notice_state" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"last_outcome" text
);
--> statement-breakpoint
CREATE TABLE "alert_thresholds" (
	"connection_id" uuid PRIMARY KEY NOT NULL,
	"silence_hours" integer,
	"bad_signatures" integer,
	"unsigned_events" integer,
	"late_events" integer,
	"receiver_errors" integer,
	"destination_failing_minutes" integer,
	"updated_by" uuid,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"kind" "alert_kind" NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"state" "alert_state" DEFAULT 'open' NOT NULL,
	"opened_at" timestamp (3) with time zone NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	"clear_since" timestamp (3) with time zone,
	"resolved_at" timestamp (3) with time zone,
	"acknowledged_at" timestamp (3) with time zone,
	"acknowledged_by" uuid,
	"muted_until" timestamp (3) with time zone,
	"measure" jsonb NOT NULL,
	"notified_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "alert_notices" ADD CONSTRAINT "alert_notices_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_thresholds" ADD CONSTRAINT "alert_thresholds_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_thresholds" ADD CONSTRAINT "alert_thresholds_updated_by_console_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_console_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_notices_due_idx" ON "alert_notices" USING btree ("due_at") WHERE "alert_notices"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "alert_notices_alert_idx" ON "alert_notices" USING btree ("alert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_idx" ON "alerts" USING btree ("connection_id","kind","subject") WHERE "alerts"."state" = 'open';--> statement-breakpoint
CREATE INDEX "alerts_opened_idx" ON "alerts" USING btree ("opened_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "alerts_connection_idx" ON "alerts" USING btree ("connection_id","opened_at" DESC NULLS LAST);