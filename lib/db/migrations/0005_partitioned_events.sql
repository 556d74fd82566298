-- webhook_events becomes partitioned by UTC month of receipt (first_received_at, the console's own
-- clock, set once at the first delivery), so the retention purge drops whole months instead of
-- deleting row by row. A partitioned table's unique indexes must hold the partition key, which a
-- redelivery cannot know: the primary key becomes (id, first_received_at) and (connection_id, event_id)
-- a plain index; lib/webhooks/store.ts keeps that pair one row by locking it while it stores.
-- Hand-written: drizzle-kit has no PARTITION BY; schema.ts describes the same columns and indexes.
-- Existing events are copied once into their months' partitions.
ALTER TABLE "webhook_events" RENAME TO "webhook_events_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_events_unpartitioned" RENAME CONSTRAINT "webhook_events_pkey" TO "webhook_events_unpartitioned_pkey";--> statement-breakpoint
CREATE TABLE "webhook_events" (LIKE "webhook_events_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("first_received_at");--> statement-breakpoint
ALTER SEQUENCE "webhook_events_id_seq" OWNED BY "webhook_events"."id";--> statement-breakpoint
-- The month's partition holding `at` (UTC months), with the planner statistics its queries need; a
-- partition that exists is left as it is. Called by lib/webhooks/partitions.ts ahead of time and
-- whenever an insert finds no partition for its row.
CREATE FUNCTION "webhook_events_create_partition"("at" timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamp := date_trunc('month', "at" AT TIME ZONE 'UTC');
  partition_name text := 'webhook_events_' || to_char(month_start, 'YYYY_MM');
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF webhook_events FOR VALUES FROM (%L) TO (%L)',
    partition_name, month_start::text || '+00', (month_start + interval '1 month')::text || '+00');
  -- How few events arrive outside the delivery window, per partition: the expiry filter's plan needs it.
  EXECUTE format('CREATE STATISTICS IF NOT EXISTS %I ON (date_part(''epoch'', first_received_at - expires_at)) FROM %I',
    partition_name || '_delay_stats', partition_name);
  RETURN partition_name;
END $$;--> statement-breakpoint
SELECT "webhook_events_create_partition"(m) FROM (
  SELECT DISTINCT date_trunc('month', "first_received_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "webhook_events_unpartitioned"
  UNION SELECT now() UNION SELECT now() + interval '1 month'
) months;--> statement-breakpoint
INSERT INTO "webhook_events" SELECT * FROM "webhook_events_unpartitioned";--> statement-breakpoint
DROP TABLE "webhook_events_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_id_first_received_at_pk" PRIMARY KEY("id","first_received_at");--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_events_connection_event_idx" ON "webhook_events" USING btree ("connection_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_received_idx" ON "webhook_events" USING btree ("first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_type_received_idx" ON "webhook_events" USING btree ("type","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_log_idx" ON "webhook_events" USING btree ("connection_id","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_method_idx" ON "webhook_events" USING btree ("verification_method","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_platform_idx" ON "webhook_events" USING btree ("device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_method_platform_idx" ON "webhook_events" USING btree ("verification_method","device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_method_idx" ON "webhook_events" USING btree ("connection_id","verification_method","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_platform_idx" ON "webhook_events" USING btree ("connection_id","device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_method_platform_idx" ON "webhook_events" USING btree ("connection_id","verification_method","device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_delay_idx" ON "webhook_events" USING btree (width_bucket(date_part('epoch', "first_received_at" - "expires_at"), array[60,600,3600,21600,86400]::float8[]),"first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_test_idx" ON "webhook_events" USING btree ("first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "webhook_events"."is_test";--> statement-breakpoint
CREATE INDEX "webhook_events_user_prefix_idx" ON "webhook_events" USING btree ("user_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_user_prefix_idx" ON "webhook_events" USING btree ("connection_id","user_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "webhook_events_user_authenticator_idx" ON "webhook_events" USING btree ("user_authenticator_id");--> statement-breakpoint
CREATE INDEX "webhook_events_expiry_outside_window_idx" ON "webhook_events" USING btree ("expires_at") WHERE date_part('epoch', "webhook_events"."first_received_at" - "webhook_events"."expires_at") not between 0 and 86400;--> statement-breakpoint
CREATE INDEX "webhook_events_connection_received_idx" ON "webhook_events" USING btree ("connection_id","first_received_at","signature_status") WHERE not "webhook_events"."is_test";--> statement-breakpoint
CREATE INDEX "webhook_events_expired_hour_idx" ON "webhook_events" USING btree (date_bin('1 hour', "first_received_at", '2000-01-01T00:00:00Z'::timestamptz),"verification_method",width_bucket(date_part('epoch', "first_received_at" - "expires_at"), array[60,600,3600,21600,86400]::float8[]),"first_received_at","expires_at") WHERE "webhook_events"."type" = 'authenticator.expired' and not "webhook_events"."is_test";
