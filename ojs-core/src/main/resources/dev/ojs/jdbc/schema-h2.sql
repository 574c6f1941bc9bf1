-- OJS job table for H2 2.2+. The prefix "ojs_" is replaced by the configured table prefix.
-- States: scheduled, available, active, completed, retryable, discarded, cancelled; dead letters are
-- discarded rows with dead_letter = true. Timestamps are UTC instants written by the application clock.
-- retry_policy holds only the retry policy fields given for the job ({} for none): the handler that
-- runs the job supplies the rest (spec §8.1).
-- Without partial indexes, generated columns stand in for them:
--   claim_queue     = queue while the job is claimable, else NULL (claim index, in claim order)
--   live_unique_key = unique_key while the job is live, else NULL (unique index on (type,
--                     live_unique_key): a key is unique per type among live jobs)
--   live_expires_at = expires_at while the job still waits to run, else NULL (the expirer's index)
-- They use the simple "CASE state WHEN ..." form: H2 2.4 fails with "The database has been closed" on
-- "CASE WHEN state IN (...)" generated columns once the session that created the table is closed.
CREATE TABLE IF NOT EXISTS ojs_jobs (
	id              VARCHAR(36)  NOT NULL PRIMARY KEY,
	type            VARCHAR(255) NOT NULL,
	queue           VARCHAR(255) NOT NULL,
	args            CLOB         NOT NULL,
	meta            CLOB         NOT NULL,
	priority        INT          NOT NULL,
	state           VARCHAR(16)  NOT NULL,
	attempt         INT          NOT NULL,
	max_attempts    INT          NOT NULL,
	retry_policy    CLOB         NOT NULL,
	errors          CLOB         NOT NULL,
	last_error_type VARCHAR(255),
	dead_letter     BOOLEAN      DEFAULT FALSE NOT NULL,
	unique_key      VARCHAR(255),
	scheduled_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	created_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	enqueued_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	started_at      TIMESTAMP(6) WITH TIME ZONE,
	completed_at    TIMESTAMP(6) WITH TIME ZONE,
	discarded_at    TIMESTAMP(6) WITH TIME ZONE,
	locked_by       VARCHAR(255),
	locked_until    TIMESTAMP(6) WITH TIME ZONE,
	expires_at      TIMESTAMP(6) WITH TIME ZONE,
	timeout_ms      BIGINT,
	visibility_timeout_ms BIGINT,
	concurrency_key VARCHAR(255),
	sequence_key    VARCHAR(255),
	claim_queue     VARCHAR(255) GENERATED ALWAYS AS
		(CASE state WHEN 'available' THEN queue WHEN 'scheduled' THEN queue WHEN 'retryable' THEN queue END),
	claim_rank      BIGINT GENERATED ALWAYS AS (-priority),
	live_unique_key VARCHAR(255) GENERATED ALWAYS AS
		(CASE state WHEN 'scheduled' THEN unique_key WHEN 'available' THEN unique_key WHEN 'active' THEN unique_key
			WHEN 'retryable' THEN unique_key END),
	live_expires_at TIMESTAMP(6) WITH TIME ZONE GENERATED ALWAYS AS
		(CASE state WHEN 'scheduled' THEN expires_at WHEN 'available' THEN expires_at WHEN 'retryable' THEN expires_at
			WHEN 'pending' THEN expires_at END)
);
-- expires_at came after the first release: tables created before it get the columns here.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS expires_at TIMESTAMP(6) WITH TIME ZONE;
-- timeout_ms (the attempt's execution timeout) and visibility_timeout_ms (its reservation when the
-- fetch names none) came later: tables created before get them here.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS timeout_ms BIGINT;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS visibility_timeout_ms BIGINT;
-- and concurrency_key (the key of a per-key limit of its type) after them.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS concurrency_key VARCHAR(255);
-- and sequence_key (jobs with one key run one at a time, in enqueue order) after it.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS sequence_key VARCHAR(255);
-- Sequences: a claim takes a job with a sequence key only when no earlier (lower id) job of the key is live.
CREATE INDEX IF NOT EXISTS ojs_jobs_sequence_idx ON ojs_jobs (sequence_key, id);
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS live_expires_at TIMESTAMP(6) WITH TIME ZONE GENERATED ALWAYS AS
	(CASE state WHEN 'scheduled' THEN expires_at WHEN 'available' THEN expires_at WHEN 'retryable' THEN expires_at
		WHEN 'pending' THEN expires_at END);
CREATE INDEX IF NOT EXISTS ojs_jobs_expires_idx ON ojs_jobs (live_expires_at);
CREATE INDEX IF NOT EXISTS ojs_jobs_claim_idx ON ojs_jobs (claim_queue, claim_rank, scheduled_at, id);
CREATE INDEX IF NOT EXISTS ojs_jobs_due_idx ON ojs_jobs (state, queue, scheduled_at);
CREATE UNIQUE INDEX IF NOT EXISTS ojs_jobs_unique_idx ON ojs_jobs (type, live_unique_key);
CREATE INDEX IF NOT EXISTS ojs_jobs_locked_idx ON ojs_jobs (state, locked_until);
CREATE INDEX IF NOT EXISTS ojs_jobs_completed_idx ON ojs_jobs (state, completed_at);
CREATE INDEX IF NOT EXISTS ojs_jobs_discarded_idx ON ojs_jobs (state, dead_letter, discarded_at);

-- Admin API (ojs-admin-api.md §7): keyset pages in creation order use the primary key (ids are UUIDv7
-- made from created_at's millisecond); jobs by error type, and dead letters grouped. Tables created
-- before lose their (created_at, id) indexes here.
DROP INDEX IF EXISTS ojs_jobs_created_idx;
DROP INDEX IF EXISTS ojs_jobs_error_created_idx;
CREATE INDEX IF NOT EXISTS ojs_jobs_error_idx ON ojs_jobs (last_error_type, id);
CREATE INDEX IF NOT EXISTS ojs_jobs_dead_letter_group_idx ON ojs_jobs (state, dead_letter, last_error_type, type);

-- Error history (spec §10.1), append-only: one row per recorded failure, written in the failure's
-- transaction, read oldest first by seq. A job's row never holds it, so the later versions of a
-- retried job's row do not copy it. The rows of a job go when the job is deleted; the worker keeps
-- a job's newest ojs.error-history-limit entries. Jobs stored before this table have their earlier
-- entries in <prefix>jobs.errors, which is read first.
CREATE TABLE IF NOT EXISTS ojs_job_errors (
	seq     BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	job_id  VARCHAR(36) NOT NULL,
	attempt INT         NOT NULL,
	error   CLOB        NOT NULL
);
CREATE INDEX IF NOT EXISTS ojs_job_errors_job_idx ON ojs_job_errors (job_id, seq);

-- Job results (spec README decision 28): the JSON a successful attempt returned, one row per job
-- that returned one, apart from the job row; deleted with the job.
CREATE TABLE IF NOT EXISTS ojs_job_results (
	job_id VARCHAR(36) NOT NULL PRIMARY KEY,
	result CLOB        NOT NULL
);

-- Handlers published by worker nodes: where jobs enqueued without a queue or priority go, and the
-- retry policy their handler runs them with, for nodes that lack the handler. One row per job type,
-- the latest publication wins.
CREATE TABLE IF NOT EXISTS ojs_handlers (
	type               varchar(255) NOT NULL PRIMARY KEY,
	queue              varchar(255) NOT NULL,
	priority           integer      NOT NULL,
	application_policy CLOB NOT NULL,
	handler_policy     CLOB NOT NULL,
	application        varchar(255),
	node_id            varchar(255) NOT NULL,
	published_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL
);

-- Recurring jobs (ojs-cron.md): one row per schedule. next_run_at is the next tick, NULL while the
-- schedule is disabled or paused; the evaluator reads only due rows through ojs_schedules_due_idx.
-- application owns the row: only it changes it.
CREATE TABLE IF NOT EXISTS ojs_schedules (
	name         VARCHAR(255) NOT NULL PRIMARY KEY,
	expression   VARCHAR(255) NOT NULL,
	zone         VARCHAR(64)  NOT NULL,
	type         VARCHAR(255) NOT NULL,
	args         CLOB         NOT NULL,
	meta         CLOB         NOT NULL,
	queue        VARCHAR(255),
	priority     INT,
	retry_policy CLOB         NOT NULL,
	overlap      VARCHAR(16)  NOT NULL,
	enabled      BOOLEAN      NOT NULL,
	description  VARCHAR(1000),
	application  VARCHAR(255),
	declared     BOOLEAN      NOT NULL,
	anchor_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	next_run_at  TIMESTAMP(6) WITH TIME ZONE,
	last_run_at  TIMESTAMP(6) WITH TIME ZONE,
	last_job_id  VARCHAR(36),
	last_outcome VARCHAR(32),
	run_count    BIGINT       NOT NULL,
	queued_runs  INT          NOT NULL,
	created_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	updated_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS ojs_schedules_due_idx ON ojs_schedules (next_run_at);
CREATE INDEX IF NOT EXISTS ojs_schedules_queued_idx ON ojs_schedules (queued_runs);

-- Leases: the recurring-job evaluator's, held by one node until expires_at (database clock).
CREATE TABLE IF NOT EXISTS ojs_leases (
	name       VARCHAR(64)  NOT NULL PRIMARY KEY,
	holder     VARCHAR(255) NOT NULL,
	expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL
);

-- Queue states (ojs-queue-config.md §5.1). A queue has a row once it was paused or resumed;
-- workers claim nothing from a paused queue, and enqueues into it still succeed.
-- Rate limits (§6.2, §8.3): at most rate_limit jobs start per rate_period_ms on all nodes together;
-- rate_tat is the token bucket's theoretical arrival time in epoch nanoseconds.
-- Concurrency (§6.2): at most concurrency jobs of the queue active at once on all nodes together; a
-- claim locks the queue's row and takes active_max as the queue's active jobs: the last count (by
-- state and queue, made at counted_at, epoch ms), plus the jobs claimed since, less those whose end
-- took theirs off in its own transaction. A claim counts again when that count is a second old.
CREATE TABLE IF NOT EXISTS ojs_queues (
	name           VARCHAR(255) NOT NULL PRIMARY KEY,
	paused         BOOLEAN      DEFAULT FALSE NOT NULL,
	paused_at      TIMESTAMP(6) WITH TIME ZONE,
	rate_limit     INTEGER,
	rate_period_ms BIGINT,
	rate_tat       BIGINT,
	concurrency    INTEGER,
	active_max     INTEGER,
	counted_at     BIGINT
);
-- the rate-limit columns came after the first release: tables created before them get them here.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_limit INTEGER;
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_period_ms BIGINT;
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_tat BIGINT;
-- and the concurrency column after them.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS concurrency INTEGER;
-- and active_max (the most jobs of the queue that can be active: the last count plus the jobs
-- claimed since; NULL until a claim counts them) after it.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS active_max INTEGER;
-- and counted_at (when a claim last counted them, epoch ms; ends since took theirs off) after it.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS counted_at BIGINT;

-- Limits of job types on all nodes together, one row per limited type named 'type:<job type>':
-- at most concurrency jobs of the type active at once, and at most concurrency_per_key of them with
-- one concurrency_key. A claim that may take jobs of a limited type locks the type's row and bounds
-- its active jobs with active_max, as for queues above (per key, it counts them at every claim).
CREATE TABLE IF NOT EXISTS ojs_limits (
	name        VARCHAR(255) NOT NULL PRIMARY KEY,
	concurrency INTEGER,
	concurrency_per_key INTEGER,
	active_max  INTEGER
);
-- active_max (as for queues) came after the table: tables created before it get it here.
ALTER TABLE ojs_limits ADD COLUMN IF NOT EXISTS active_max INTEGER;

-- Worker nodes (ojs-admin-api.md §9): one row per running node, upserted on its heartbeat and
-- deleted when it stops cleanly; a node not seen for three heartbeat intervals is stale.
CREATE TABLE IF NOT EXISTS ojs_nodes (
	node_id      VARCHAR(255) NOT NULL PRIMARY KEY,
	application  VARCHAR(255),
	hostname     VARCHAR(255) NOT NULL,
	queues       VARCHAR(4000) NOT NULL,
	concurrency  INTEGER NOT NULL,
	running_jobs INTEGER NOT NULL,
	started_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	last_seen_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	version      VARCHAR(64),
	kind         VARCHAR(16) NOT NULL
);

-- Statistics (ojs-admin-api.md §10): outcome counters per queue and minute, added to with each
-- batch of outcomes and pruned after the retention of completed jobs (at least 24 hours). Each
-- job store writes rows of its own (writer), so nodes never wait on one another's counters;
-- readers add them up.
CREATE TABLE IF NOT EXISTS ojs_stats (
	minute_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	queue         VARCHAR(255) NOT NULL,
	writer        VARCHAR(64) NOT NULL,
	completed     BIGINT NOT NULL,
	failed        BIGINT NOT NULL,
	retried       BIGINT NOT NULL,
	dead_lettered BIGINT NOT NULL,
	discarded     BIGINT NOT NULL,
	PRIMARY KEY (minute_at, queue, writer)
);

-- Workflows (ojs-workflows.md, spec README decisions 25-34): one row per chain, group or batch; its
-- steps and callbacks are rows of ojs_jobs with workflow_id set. workflow_step is the index of a step
-- in its workflow; workflow_role is "step", or the callback a batch job is: on_success, on_failure,
-- on_complete. workflow_type is the workflow's type, kept on the row so that a job read tells where
-- it stands without a join. parent_results is the JSON array of the earlier steps' results (a chain
-- step) or of the jobs' results (a batch callback), set when the job is activated. total counts the
-- steps (no callbacks); completed and failed count those that ended, written as a group or batch
-- advances and when a chain ends (a running chain's completed steps are counted from its jobs). An
-- end locks its workflow row in the same transaction, so each advance happens once, except a chain
-- step's success: it makes the next step available, that row's only writer, without the chain's row.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_id VARCHAR(36);
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_step INT;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_role VARCHAR(16);
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_type VARCHAR(16);
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS parent_results CLOB;
CREATE INDEX IF NOT EXISTS ojs_jobs_workflow_idx ON ojs_jobs (workflow_id, workflow_step);
CREATE TABLE IF NOT EXISTS ojs_workflows (
	id          VARCHAR(36)  NOT NULL PRIMARY KEY,
	type        VARCHAR(16)  NOT NULL,
	name        VARCHAR(255),
	state       VARCHAR(16)  NOT NULL,
	total       INT          NOT NULL,
	completed   INT          NOT NULL,
	failed      INT          NOT NULL,
	metadata    CLOB         NOT NULL,
	created_at  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
	finished_at TIMESTAMP(6) WITH TIME ZONE
);
