DROP INDEX "webhook_events_expires_idx";--> statement-breakpoint
CREATE INDEX "webhook_events_connection_log_idx" ON "webhook_events" USING btree ("connection_id","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_method_idx" ON "webhook_events" USING btree ("verification_method","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_platform_idx" ON "webhook_events" USING btree ("device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_method_platform_idx" ON "webhook_events" USING btree ("verification_method","device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_method_idx" ON "webhook_events" USING btree ("connection_id","verification_method","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_platform_idx" ON "webhook_events" USING btree ("connection_id","device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_connection_method_platform_idx" ON "webhook_events" USING btree ("connection_id","verification_method","device_platform","first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_delay_idx" ON "webhook_events" USING btree (width_bucket(date_part('epoch', "first_received_at" - "expires_at"), array[60,600,3600,21600,86400]::float8[]),"first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_test_idx" ON "webhook_events" USING btree ("first_received_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "webhook_events"."is_test";--> statement-breakpoint
CREATE INDEX "webhook_events_expiry_outside_window_idx" ON "webhook_events" USING btree ("expires_at") WHERE date_part('epoch', "webhook_events"."first_received_at" - "webhook_events"."expires_at") not between 0 and 86400;--> statement-breakpoint
-- Not in schema.ts (drizzle has no statistics objects): the distribution of the delivery delay, so the
-- planner knows how few events fall outside the delivery window and reads them from their partial index.
CREATE STATISTICS "webhook_events_delivery_delay_stats" ON (date_part('epoch', "first_received_at" - "expires_at")) FROM "webhook_events";
