CREATE TYPE "public"."forward_delivery_state" AS ENUM('pending', 'delivered', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."forward_signing" AS ENUM('service', 'standard_webhooks');--> statement-breakpoint
CREATE TABLE "forward_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"destination_id" uuid NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"latency_ms" integer NOT NULL,
	"status" integer,
	"ok" boolean NOT NULL,
	"outcome" text NOT NULL,
	"response_body" text
);
--> statement-breakpoint
CREATE TABLE "forward_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"destination_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"state" "forward_delivery_state" DEFAULT 'pending' NOT NULL,
	"origin" text DEFAULT 'receipt' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"last_outcome" text
);
--> statement-breakpoint
CREATE TABLE "forward_destinations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"paused_at" timestamp (3) with time zone,
	"failing_since" timestamp (3) with time zone,
	"event_types" text[],
	"verification_methods" text[],
	"signing" "forward_signing" DEFAULT 'service' NOT NULL,
	"secret_ciphertext" text,
	"previous_secret_ciphertext" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "forward_attempts" ADD CONSTRAINT "forward_attempts_delivery_id_forward_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."forward_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_deliveries" ADD CONSTRAINT "forward_deliveries_destination_id_forward_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."forward_destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD CONSTRAINT "forward_destinations_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_destinations" ADD CONSTRAINT "forward_destinations_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forward_attempts_delivery_idx" ON "forward_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "forward_attempts_destination_idx" ON "forward_attempts" USING btree ("destination_id","started_at");--> statement-breakpoint
CREATE INDEX "forward_deliveries_due_idx" ON "forward_deliveries" USING btree ("due_at") WHERE "forward_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "forward_deliveries_pending_idx" ON "forward_deliveries" USING btree ("destination_id") WHERE "forward_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "forward_deliveries_destination_idx" ON "forward_deliveries" USING btree ("destination_id","created_at");--> statement-breakpoint
CREATE INDEX "forward_deliveries_created_idx" ON "forward_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "forward_deliveries_event_idx" ON "forward_deliveries" USING btree ("connection_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "forward_destinations_name_idx" ON "forward_destinations" USING btree ("connection_id",lower("name"));