/**
 * The one reviewed list of what squawk flags in a migration and is accepted (scripts/lint-migrations.ts): a
 * file, a rule and why it is safe there. A new migration gets no entry unless its review adds one here; an
 * entry whose file no longer breaks its rule fails the linter, so the list stays true.
 *
 * 0000–0014 came before the linter, when an upgrade stopped every instance before the new one migrated (no
 * release had promised a rolling upgrade): that is why they are safe, and no precedent for 0015 on.
 */
export type MigrationException = { file: string; rule: string; why: string };

/** Before rolling upgrades: the release stopped the console, migrated, then started it again. */
const stopped = "Applied before rolling upgrades (issue 56), with every instance stopped for the upgrade";

export const migrationExceptions: readonly MigrationException[] = [
  {
    file: "0001_teams.sql",
    rule: "ban-drop-not-null",
    why: "console_users.password_hash may be null for single sign-on users: a relaxed constraint, older code only wrote hashes",
  },
  {
    file: "0001_teams.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; console_users holds a team (tens of rows) and login_attempts a short history: the builds lasted milliseconds`,
  },
  {
    file: "0003_overview_indexes.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; builds on webhook_events block its writes while they last`,
  },
  {
    file: "0004_log_indexes.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; builds on webhook_events block its writes while they last`,
  },
  {
    file: "0004_log_indexes.sql",
    rule: "require-concurrent-index-deletion",
    why: `${stopped}; the dropped index was replaced by the ones built in the same migration`,
  },
  {
    file: "0005_partitioned_events.sql",
    rule: "renaming-table",
    why: `${stopped}; webhook_events is renamed only to copy it into its partitioned replacement of the same name`,
  },
  {
    file: "0005_partitioned_events.sql",
    rule: "ban-drop-table",
    why: "Drops webhook_events_unpartitioned, the copy's source renamed in the same migration: no code ever named it",
  },
  {
    file: "0005_partitioned_events.sql",
    rule: "adding-serial-primary-key-field",
    why: "The primary key is added to the partitioned webhook_events created in the same migration",
  },
  {
    file: "0006_login_attempt_device.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; login_attempts is a short history of sign-ins: the build lasted milliseconds`,
  },
  {
    file: "0008_forward_replays.sql",
    rule: "adding-foreign-key-constraint",
    why: "forward_deliveries.replay_id is added in the same migration: every row is null, so the check reads no parent",
  },
  {
    file: "0008_forward_replays.sql",
    rule: "constraint-missing-not-valid",
    why: "forward_deliveries.replay_id is added in the same migration: every row is null, so validating finds nothing",
  },
  {
    file: "0008_forward_replays.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; a partial index on replay_id, added in the same migration, so it indexes no row`,
  },
  {
    file: "0010_alert_notice_targets.sql",
    rule: "adding-foreign-key-constraint",
    why: "alert_notices.target_id is added in the same migration: every row is null, so the check reads no parent",
  },
  {
    file: "0010_alert_notice_targets.sql",
    rule: "constraint-missing-not-valid",
    why: "alert_notices.target_id is added in the same migration: every row is null, so validating finds nothing",
  },
  {
    file: "0010_alert_notice_targets.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; a partial index on target_id, added in the same migration, so it indexes no row`,
  },
  {
    file: "0011_forwarding_isolation.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; builds on forward_deliveries block its writes while they last`,
  },
  {
    file: "0011_forwarding_isolation.sql",
    rule: "require-concurrent-index-deletion",
    why: `${stopped}; the dropped index was replaced by the ones built in the same migration`,
  },
  {
    file: "0014_end_user_erasures.sql",
    rule: "require-concurrent-index-creation",
    why: `${stopped}; builds on webhook_events and webhook_rejections block their writes while they last`,
  },
];
