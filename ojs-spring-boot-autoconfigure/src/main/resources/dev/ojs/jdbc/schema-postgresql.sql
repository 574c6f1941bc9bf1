-- OJS job table for PostgreSQL 13+. The prefix "ojs_" is replaced by the configured table prefix.
-- States: scheduled, available, active, completed, retryable, discarded, cancelled; dead letters are
-- discarded rows with dead_letter = true. Timestamps are UTC instants written by the application clock.
-- retry_policy is the job's effective retry policy written without the fields that equal the spec's
-- default policy (§8): {} for the default; every reader merges the defaults back.
CREATE TABLE IF NOT EXISTS ojs_jobs (
	id              uuid         NOT NULL PRIMARY KEY,
	type            varchar(255) NOT NULL,
	queue           varchar(255) NOT NULL,
	args            jsonb        NOT NULL,
	meta            jsonb        NOT NULL,
	priority        integer      NOT NULL,
	state           varchar(16)  NOT NULL,
	attempt         integer      NOT NULL,
	max_attempts    integer      NOT NULL,
	retry_policy    jsonb        NOT NULL,
	errors          jsonb        NOT NULL,
	last_error_type varchar(255),
	dead_letter     boolean      NOT NULL DEFAULT false,
	unique_key      varchar(255),
	scheduled_at    timestamptz  NOT NULL,
	created_at      timestamptz  NOT NULL,
	enqueued_at     timestamptz  NOT NULL,
	started_at      timestamptz,
	completed_at    timestamptz,
	discarded_at    timestamptz,
	locked_by       varchar(255),
	locked_until    timestamptz
);

-- Claim: WHERE state IN (available, scheduled, retryable) AND queue = ? AND scheduled_at <= now
-- ORDER BY priority DESC, scheduled_at, id
CREATE INDEX IF NOT EXISTS ojs_jobs_claim_idx ON ojs_jobs (queue, priority DESC, scheduled_at, id)
	WHERE state IN ('available', 'scheduled', 'retryable');

-- Next due time of delayed jobs and retries (wakes idle pollers)
CREATE INDEX IF NOT EXISTS ojs_jobs_due_idx ON ojs_jobs (queue, scheduled_at)
	WHERE state IN ('scheduled', 'retryable');

-- At most one live job per type and unique key
CREATE UNIQUE INDEX IF NOT EXISTS ojs_jobs_unique_idx ON ojs_jobs (type, unique_key)
	WHERE unique_key IS NOT NULL AND state IN ('scheduled', 'available', 'active', 'retryable');

-- Rescuer: expired reservations
CREATE INDEX IF NOT EXISTS ojs_jobs_locked_idx ON ojs_jobs (locked_until)
	WHERE state = 'active';

-- Retention: completed jobs by age
CREATE INDEX IF NOT EXISTS ojs_jobs_completed_idx ON ojs_jobs (completed_at)
	WHERE state = 'completed';

-- Retention and dead letter queue: discarded and cancelled jobs by age
CREATE INDEX IF NOT EXISTS ojs_jobs_discarded_idx ON ojs_jobs (dead_letter, discarded_at)
	WHERE state IN ('discarded', 'cancelled');

-- Queue states (ojs-queue-config.md §5.1). A queue has a row once it was paused or resumed;
-- workers claim nothing from a paused queue, and enqueues into it still succeed.
CREATE TABLE IF NOT EXISTS ojs_queues (
	name      varchar(255) NOT NULL PRIMARY KEY,
	paused    boolean      NOT NULL DEFAULT false,
	paused_at timestamptz
);
