-- OJS job table for MariaDB 10.6+. The prefix "ojs_" is replaced by the configured table prefix.
-- States: scheduled, available, active, completed, retryable, discarded, cancelled; dead letters are
-- discarded rows with dead_letter = true. DATETIME(6) columns hold UTC instants written by the
-- application clock.
-- retry_policy holds only the retry policy fields given for the job ({} for none): the handler that
-- runs the job supplies the rest (spec §8.1).
-- Without partial indexes, two stored generated columns stand in for them:
--   claim_queue     = queue while the job is claimable, else NULL (claim index, in claim order;
--                     claim_rank = -priority keeps that order ascending, which 10.6 needs)
--   live_unique_key = unique_key while the job is live, else NULL (unique index on (type,
--                     live_unique_key): a key is unique per type among live jobs)
--   live_expires_at = expires_at while the job still waits to run, else NULL (the expirer's index)
CREATE TABLE IF NOT EXISTS ojs_jobs (
	id              CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	type            VARCHAR(255) NOT NULL,
	queue           VARCHAR(255) NOT NULL,
	args            LONGTEXT     NOT NULL,
	meta            LONGTEXT     NOT NULL,
	priority        INT          NOT NULL,
	state           VARCHAR(16)  NOT NULL,
	attempt         INT          NOT NULL,
	max_attempts    INT          NOT NULL,
	retry_policy    TEXT         NOT NULL,
	errors          LONGTEXT     NOT NULL,
	last_error_type VARCHAR(255) NULL,
	dead_letter     BOOLEAN      NOT NULL DEFAULT FALSE,
	unique_key      VARCHAR(255) NULL,
	scheduled_at    DATETIME(6)  NOT NULL,
	created_at      DATETIME(6)  NOT NULL,
	enqueued_at     DATETIME(6)  NOT NULL,
	started_at      DATETIME(6)  NULL,
	completed_at    DATETIME(6)  NULL,
	discarded_at    DATETIME(6)  NULL,
	locked_by       VARCHAR(255) NULL,
	locked_until    DATETIME(6)  NULL,
	expires_at      DATETIME(6)  NULL,
	timeout_ms      BIGINT       NULL,
	visibility_timeout_ms BIGINT NULL,
	concurrency_key VARCHAR(255) NULL,
	sequence_key    VARCHAR(255) NULL,
	claim_queue     VARCHAR(255) GENERATED ALWAYS AS
		(CASE WHEN state IN ('available', 'scheduled', 'retryable') THEN queue END) STORED,
	claim_rank      BIGINT GENERATED ALWAYS AS (-priority) STORED,
	live_unique_key VARCHAR(255) GENERATED ALWAYS AS
		(CASE WHEN state IN ('scheduled', 'available', 'active', 'retryable') THEN unique_key END) STORED,
	live_expires_at DATETIME(6) GENERATED ALWAYS AS
		(CASE WHEN state IN ('scheduled', 'available', 'retryable', 'pending') THEN expires_at END) STORED,
	PRIMARY KEY (id),
	INDEX ojs_jobs_claim_idx (claim_queue, claim_rank, scheduled_at, id),
	INDEX ojs_jobs_due_idx (state, queue, scheduled_at),
	UNIQUE INDEX ojs_jobs_unique_idx (type, live_unique_key),
	INDEX ojs_jobs_locked_idx (state, locked_until),
	INDEX ojs_jobs_expires_idx (live_expires_at),
	INDEX ojs_jobs_completed_idx (state, completed_at),
	INDEX ojs_jobs_discarded_idx (state, dead_letter, discarded_at),
	-- Admin API (ojs-admin-api.md §7): keyset pages in creation order use the primary key (ids are
	-- UUIDv7 made from created_at's millisecond); jobs by error type, and dead-letter groups
	INDEX ojs_jobs_error_idx (last_error_type, id),
	INDEX ojs_jobs_dead_letter_group_idx (state, dead_letter, last_error_type, type)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- expires_at came after the first release: tables created before it get the columns and index here.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS expires_at DATETIME(6) NULL;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS live_expires_at DATETIME(6) GENERATED ALWAYS AS
	(CASE WHEN state IN ('scheduled', 'available', 'retryable', 'pending') THEN expires_at END) STORED;
CREATE INDEX IF NOT EXISTS ojs_jobs_expires_idx ON ojs_jobs (live_expires_at);
-- timeout_ms (the attempt's execution timeout) and visibility_timeout_ms (its reservation when the
-- fetch names none) came later: tables created before get them here.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS timeout_ms BIGINT NULL;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS visibility_timeout_ms BIGINT NULL;
-- and concurrency_key (the key of a per-key limit of its type) after them.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS concurrency_key VARCHAR(255) NULL;
-- and sequence_key (jobs with one key run one at a time, in enqueue order) after it.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS sequence_key VARCHAR(255) NULL;
-- Sequences: a claim takes a job with a sequence key only when no earlier (lower id) job of the key is live.
CREATE INDEX IF NOT EXISTS ojs_jobs_sequence_idx ON ojs_jobs (sequence_key, id);

-- Tables created before lists used the primary key get the error-type index in id order here, and
-- lose their (created_at, id) indexes.
CREATE INDEX IF NOT EXISTS ojs_jobs_error_idx ON ojs_jobs (last_error_type, id);
DROP INDEX IF EXISTS ojs_jobs_error_created_idx ON ojs_jobs;
DROP INDEX IF EXISTS ojs_jobs_created_idx ON ojs_jobs;

-- Error history (spec §10.1), append-only: one row per recorded failure, written in the failure's
-- transaction, read oldest first by seq. A job's row never holds it, so the later versions of a
-- retried job's row do not copy it. The rows of a job go when the job is deleted; the worker keeps
-- a job's newest ojs.error-history-limit entries. Jobs stored before this table have their earlier
-- entries in <prefix>jobs.errors, which is read first.
CREATE TABLE IF NOT EXISTS ojs_job_errors (
	seq     BIGINT   NOT NULL AUTO_INCREMENT,
	job_id  CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	attempt INT      NOT NULL,
	error   LONGTEXT NOT NULL,
	PRIMARY KEY (seq),
	INDEX ojs_job_errors_job_idx (job_id, seq)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Job results (spec README decision 28): the JSON a successful attempt returned, one row per job
-- that returned one, apart from the job row; deleted with the job.
CREATE TABLE IF NOT EXISTS ojs_job_results (
	job_id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	result LONGTEXT NOT NULL,
	PRIMARY KEY (job_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Handlers published by worker nodes: where jobs enqueued without a queue or priority go, and the
-- retry policy their handler runs them with, for nodes that lack the handler. One row per job type,
-- the latest publication wins.
CREATE TABLE IF NOT EXISTS ojs_handlers (
	type               varchar(255) NOT NULL PRIMARY KEY,
	queue              varchar(255) NOT NULL,
	priority           integer      NOT NULL,
	application_policy TEXT NOT NULL,
	handler_policy     TEXT NOT NULL,
	application        varchar(255),
	node_id            varchar(255) NOT NULL,
	published_at       DATETIME(6) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Recurring jobs (ojs-cron.md): one row per schedule. next_run_at is the next tick, NULL while the
-- schedule is disabled or paused; the evaluator reads only due rows through ojs_schedules_due_idx.
-- application owns the row: only it changes it.
CREATE TABLE IF NOT EXISTS ojs_schedules (
	name         VARCHAR(255) NOT NULL,
	expression   VARCHAR(255) NOT NULL,
	zone         VARCHAR(64)  NOT NULL,
	type         VARCHAR(255) NOT NULL,
	args         LONGTEXT     NOT NULL,
	meta         LONGTEXT     NOT NULL,
	queue        VARCHAR(255) NULL,
	priority     INT          NULL,
	retry_policy TEXT         NOT NULL,
	overlap      VARCHAR(16)  NOT NULL,
	enabled      BOOLEAN      NOT NULL,
	description  VARCHAR(1000) NULL,
	application  VARCHAR(255) NULL,
	declared     BOOLEAN      NOT NULL,
	anchor_at    DATETIME(6)  NOT NULL,
	next_run_at  DATETIME(6)  NULL,
	last_run_at  DATETIME(6)  NULL,
	last_job_id  VARCHAR(36)  NULL,
	last_outcome VARCHAR(32)  NULL,
	run_count    BIGINT       NOT NULL,
	queued_runs  INT          NOT NULL,
	created_at   DATETIME(6)  NOT NULL,
	updated_at   DATETIME(6)  NOT NULL,
	PRIMARY KEY (name),
	INDEX ojs_schedules_due_idx (next_run_at),
	INDEX ojs_schedules_queued_idx (queued_runs)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Leases: the recurring-job evaluator's, held by one node until expires_at (database clock, UTC).
CREATE TABLE IF NOT EXISTS ojs_leases (
	name       VARCHAR(64)  NOT NULL PRIMARY KEY,
	holder     VARCHAR(255) NOT NULL,
	expires_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Queue states (ojs-queue-config.md §5.1). A queue has a row once it was paused or resumed;
-- workers claim nothing from a paused queue, and enqueues into it still succeed.
-- Rate limits (§6.2, §8.3): at most rate_limit jobs start per rate_period_ms on all nodes together;
-- rate_tat is the token bucket's theoretical arrival time in epoch nanoseconds.
-- Concurrency (§6.2): at most concurrency jobs of the queue active at once on all nodes together; a
-- claim locks the queue's row and takes active_max as the queue's active jobs: the last count (by
-- state and queue, made at counted_at, epoch ms), plus the jobs claimed since, less those whose end
-- took theirs off in its own transaction. A claim counts again when that count is a second old.
CREATE TABLE IF NOT EXISTS ojs_queues (
	name           VARCHAR(255) NOT NULL,
	paused         BOOLEAN     NOT NULL DEFAULT FALSE,
	paused_at      DATETIME(6) NULL,
	rate_limit     INT         NULL,
	rate_period_ms BIGINT      NULL,
	rate_tat       BIGINT      NULL,
	concurrency    INT         NULL,
	active_max     INT         NULL,
	counted_at     BIGINT      NULL,
	PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- the rate-limit columns came after the first release: tables created before them get them here.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_limit INT NULL;
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_period_ms BIGINT NULL;
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_tat BIGINT NULL;
-- and the concurrency column after them.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS concurrency INT NULL;
-- and active_max (the most jobs of the queue that can be active: the last count plus the jobs
-- claimed since; NULL until a claim counts them) after it.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS active_max INT NULL;
-- and counted_at (when a claim last counted them, epoch ms; ends since took theirs off) after it.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS counted_at BIGINT NULL;

-- Limits of job types on all nodes together, one row per limited type named 'type:<job type>':
-- at most concurrency jobs of the type active at once, and at most concurrency_per_key of them with
-- one concurrency_key. A claim that may take jobs of a limited type locks the type's row and bounds
-- its active jobs with active_max, as for queues above (per key, it counts them at every claim).
CREATE TABLE IF NOT EXISTS ojs_limits (
	name        VARCHAR(255) NOT NULL,
	concurrency INT NULL,
	concurrency_per_key INT NULL,
	active_max  INT NULL,
	PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- active_max (as for queues) came after the table: tables created before it get it here.
ALTER TABLE ojs_limits ADD COLUMN IF NOT EXISTS active_max INT NULL;

-- Worker nodes (ojs-admin-api.md §9): one row per running node, upserted on its heartbeat and
-- deleted when it stops cleanly; a node not seen for three heartbeat intervals is stale.
CREATE TABLE IF NOT EXISTS ojs_nodes (
	node_id      VARCHAR(255) NOT NULL PRIMARY KEY,
	application  VARCHAR(255),
	hostname     VARCHAR(255) NOT NULL,
	queues       VARCHAR(4000) NOT NULL,
	concurrency  INTEGER NOT NULL,
	running_jobs INTEGER NOT NULL,
	started_at   DATETIME(6) NOT NULL,
	last_seen_at DATETIME(6) NOT NULL,
	version      VARCHAR(64),
	kind         VARCHAR(16) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Statistics (ojs-admin-api.md §10): outcome counters per queue and minute, added to with each
-- batch of outcomes and pruned after the retention of completed jobs (at least 24 hours). Each
-- job store writes rows of its own (writer), so nodes never wait on one another's counters;
-- readers add them up.
CREATE TABLE IF NOT EXISTS ojs_stats (
	minute_at     DATETIME(6) NOT NULL,
	queue         VARCHAR(255) NOT NULL,
	writer        VARCHAR(64) NOT NULL,
	completed     BIGINT NOT NULL,
	failed        BIGINT NOT NULL,
	retried       BIGINT NOT NULL,
	dead_lettered BIGINT NOT NULL,
	discarded     BIGINT NOT NULL,
	PRIMARY KEY (minute_at, queue, writer)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

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
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NULL;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_step INT NULL;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_role VARCHAR(16) NULL;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_type VARCHAR(16) NULL;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS parent_results LONGTEXT NULL;
CREATE INDEX IF NOT EXISTS ojs_jobs_workflow_idx ON ojs_jobs (workflow_id, workflow_step);
CREATE TABLE IF NOT EXISTS ojs_workflows (
	id          CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	type        VARCHAR(16)  NOT NULL,
	name        VARCHAR(255) NULL,
	state       VARCHAR(16)  NOT NULL,
	total       INT          NOT NULL,
	completed   INT          NOT NULL,
	failed      INT          NOT NULL,
	metadata    LONGTEXT     NOT NULL,
	created_at  DATETIME(6)  NOT NULL,
	finished_at DATETIME(6)  NULL,
	PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
