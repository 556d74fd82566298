CREATE TYPE "public"."service_region" AS ENUM('us', 'eu', 'au', 'ca');--> statement-breakpoint
CREATE TYPE "public"."console_role" AS ENUM('admin', 'support');--> statement-breakpoint
CREATE TYPE "public"."secret_kind" AS ENUM('management', 'server', 'server_secondary');--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"action" text NOT NULL,
	"connection_id" uuid,
	"connection_name" text,
	"target" text,
	"outcome" text NOT NULL,
	"http_status" integer,
	"request_id" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "connection_secrets" (
	"connection_id" uuid NOT NULL,
	"kind" "secret_kind" NOT NULL,
	"ciphertext" text NOT NULL,
	"last4" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by" uuid,
	CONSTRAINT "connection_secrets_connection_id_kind_pk" PRIMARY KEY("connection_id","kind")
);
--> statement-breakpoint
CREATE TABLE "connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"region" "service_region" NOT NULL,
	"verified_at" timestamp with time zone,
	"webhook_token_hash" text NOT NULL,
	"webhook_token_ciphertext" text NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "console_role" NOT NULL,
	"password_hash" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_point_watches" (
	"connection_id" uuid NOT NULL,
	"data_point_id" text NOT NULL,
	"added_by" uuid,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_fetched_at" timestamp with time zone,
	"last_status" text,
	"snapshot" jsonb,
	CONSTRAINT "data_point_watches_connection_id_data_point_id_pk" PRIMARY KEY("connection_id","data_point_id")
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"tenant_id" text NOT NULL,
	"envelope_time" timestamp (3) with time zone NOT NULL,
	"first_received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"delivery_count" integer DEFAULT 1 NOT NULL,
	"signature_status" text NOT NULL,
	"raw_body" text NOT NULL,
	"user_id" text,
	"verification_method" text,
	"authenticator_created_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone,
	"user_authenticator_id" text,
	"device_name" text,
	"device_platform" text,
	"email" text,
	"phone_number" text,
	"credential_id" text,
	"aaguid" text,
	"credential_name" text
);
--> statement-breakpoint
CREATE TABLE "webhook_rejections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"connection_id" uuid,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer NOT NULL,
	"reason" text NOT NULL,
	"detail" text,
	"event_id" text,
	"body_sha256" text NOT NULL,
	"headers" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_secrets" ADD CONSTRAINT "connection_secrets_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_secrets" ADD CONSTRAINT "connection_secrets_set_by_console_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_created_by_console_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_updated_by_console_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_point_watches" ADD CONSTRAINT "data_point_watches_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_point_watches" ADD CONSTRAINT "data_point_watches_added_by_console_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."console_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_rejections" ADD CONSTRAINT "webhook_rejections_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_email","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_connection_idx" ON "audit_log" USING btree ("connection_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "connections_name_lower_idx" ON "connections" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "connections_webhook_token_idx" ON "connections" USING btree ("webhook_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_email_lower_idx" ON "console_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "login_attempts_email_idx" ON "login_attempts" USING btree ("email","attempted_at");--> statement-breakpoint
CREATE INDEX "login_attempts_ip_idx" ON "login_attempts" USING btree ("ip","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_connection_event_idx" ON "webhook_events" USING btree ("connection_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_received_idx" ON "webhook_events" USING btree ("first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_type_received_idx" ON "webhook_events" USING btree ("type","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_user_prefix_idx" ON "webhook_events" USING btree ("user_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "webhook_events_user_authenticator_idx" ON "webhook_events" USING btree ("user_authenticator_id");--> statement-breakpoint
CREATE INDEX "webhook_events_expires_idx" ON "webhook_events" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "webhook_rejections_received_idx" ON "webhook_rejections" USING btree ("received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_rejections_connection_idx" ON "webhook_rejections" USING btree ("connection_id","received_at" DESC NULLS LAST);