-- OJS job table for PostgreSQL 13+. The prefix "ojs_" is replaced by the configured table prefix.
-- States: scheduled, available, active, completed, retryable, discarded, cancelled; dead letters are
-- discarded rows with dead_letter = true. Timestamps are UTC instants written by the application clock.
-- retry_policy holds only the retry policy fields given for the job ({} for none): the handler that
-- runs the job supplies the rest (spec §8.1).
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
	locked_until    timestamptz,
	expires_at      timestamptz,
	timeout_ms      bigint,
	visibility_timeout_ms bigint,
	concurrency_key varchar(255),
	sequence_key    varchar(255)
)
-- Vacuumed eagerly (operations.md): every job leaves dead row versions that claims walk until a
-- vacuum removes them, so a pass starts at 1% dead rows rather than 20%, and runs unthrottled so it
-- finishes before the next is due. Set at creation only: a table's own settings are kept.
WITH (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_cost_delay = 0);

-- expires_at came after the first release: tables created before it get the column here.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS expires_at timestamptz;
-- timeout_ms (the attempt's execution timeout) and visibility_timeout_ms (its reservation when the
-- fetch names none) came later: tables created before get them here.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS timeout_ms bigint;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS visibility_timeout_ms bigint;
-- and concurrency_key (the key of a per-key limit of its type) after them.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS concurrency_key varchar(255);
-- and sequence_key (jobs with one key run one at a time, in enqueue order) after it.
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS sequence_key varchar(255);

-- Sequences: a claim takes a job with a sequence key only when no earlier (lower id) job of the key
-- is live; jobs without a key have no entry.
CREATE INDEX IF NOT EXISTS ojs_jobs_sequence_idx ON ojs_jobs (sequence_key, id)
	WHERE sequence_key IS NOT NULL;

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

-- Expirer: jobs still waiting to run whose expires_at passed; jobs without one have no entry
CREATE INDEX IF NOT EXISTS ojs_jobs_expires_idx ON ojs_jobs (expires_at)
	WHERE expires_at IS NOT NULL AND state IN ('scheduled', 'available', 'retryable', 'pending');

-- Rescuer: expired reservations
CREATE INDEX IF NOT EXISTS ojs_jobs_locked_idx ON ojs_jobs (locked_until)
	WHERE state = 'active';

-- Retention: completed jobs by age
CREATE INDEX IF NOT EXISTS ojs_jobs_completed_idx ON ojs_jobs (completed_at)
	WHERE state = 'completed';

-- Retention and dead letter queue: discarded and cancelled jobs by age
CREATE INDEX IF NOT EXISTS ojs_jobs_discarded_idx ON ojs_jobs (dead_letter, discarded_at)
	WHERE state IN ('discarded', 'cancelled');

-- Admin API (ojs-admin-api.md §7): keyset pages in creation order use the primary key, as ids are
-- UUIDv7 made from created_at's millisecond. Every full index costs each job an index entry per
-- state change (a state change is never a HOT update), so the table has no other full index, and
-- filters scan the primary key or use the partial indexes. Tables created before this layout lose
-- their (created_at, id) indexes here.
DROP INDEX IF EXISTS ojs_jobs_created_idx;
DROP INDEX IF EXISTS ojs_jobs_error_created_idx;

-- Admin API: jobs by the type of their latest error, in creation order; only failed jobs have an entry
CREATE INDEX IF NOT EXISTS ojs_jobs_error_idx ON ojs_jobs (last_error_type, id)
	WHERE last_error_type IS NOT NULL;

-- Admin API: dead letters grouped by error type x job type x queue (an index-only scan)
CREATE INDEX IF NOT EXISTS ojs_jobs_dead_letter_group_idx ON ojs_jobs (last_error_type, type, queue, discarded_at)
	WHERE state = 'discarded' AND dead_letter = true;

-- Error history (spec §10.1), append-only: one row per recorded failure, written in the failure's
-- transaction, read oldest first by seq. A job's row never holds it, so the later versions of a
-- retried job's row do not copy it. The rows of a job go when the job is deleted; the worker keeps
-- a job's newest ojs.error-history-limit entries. Jobs stored before this table have their earlier
-- entries in <prefix>jobs.errors, which is read first.
CREATE TABLE IF NOT EXISTS ojs_job_errors (
	job_id  uuid    NOT NULL,
	seq     bigint  GENERATED ALWAYS AS IDENTITY,
	attempt integer NOT NULL,
	error   text    NOT NULL
);
CREATE INDEX IF NOT EXISTS ojs_job_errors_job_idx ON ojs_job_errors (job_id, seq);

-- Job results (spec README decision 28): the JSON a successful attempt returned, one row per job
-- that returned one, apart from the job row; deleted with the job.
CREATE TABLE IF NOT EXISTS ojs_job_results (
	job_id uuid NOT NULL PRIMARY KEY,
	result text NOT NULL
);

-- Handlers published by worker nodes: where jobs enqueued without a queue or priority go, and the
-- retry policy their handler runs them with, for nodes that lack the handler. One row per job type,
-- the latest publication wins.
CREATE TABLE IF NOT EXISTS ojs_handlers (
	type               varchar(255) NOT NULL PRIMARY KEY,
	queue              varchar(255) NOT NULL,
	priority           integer      NOT NULL,
	application_policy jsonb NOT NULL,
	handler_policy     jsonb NOT NULL,
	application        varchar(255),
	node_id            varchar(255) NOT NULL,
	published_at       timestamptz NOT NULL
);

-- Recurring jobs (ojs-cron.md): one row per schedule. next_run_at is the next tick, NULL while the
-- schedule is disabled or paused; the evaluator reads only due rows through ojs_schedules_due_idx.
-- application owns the row: only it changes it.
CREATE TABLE IF NOT EXISTS ojs_schedules (
	name         varchar(255) NOT NULL PRIMARY KEY,
	expression   varchar(255) NOT NULL,
	zone         varchar(64)  NOT NULL,
	type         varchar(255) NOT NULL,
	args         jsonb        NOT NULL,
	meta         jsonb        NOT NULL,
	queue        varchar(255),
	priority     integer,
	retry_policy jsonb        NOT NULL,
	overlap      varchar(16)  NOT NULL,
	enabled      boolean      NOT NULL,
	description  varchar(1000),
	application  varchar(255),
	declared     boolean      NOT NULL,
	anchor_at    timestamptz  NOT NULL,
	next_run_at  timestamptz,
	last_run_at  timestamptz,
	last_job_id  varchar(36),
	last_outcome varchar(32),
	run_count    bigint       NOT NULL,
	queued_runs  integer      NOT NULL,
	created_at   timestamptz  NOT NULL,
	updated_at   timestamptz  NOT NULL
);
CREATE INDEX IF NOT EXISTS ojs_schedules_due_idx ON ojs_schedules (next_run_at) WHERE next_run_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS ojs_schedules_queued_idx ON ojs_schedules (name) WHERE queued_runs > 0;

-- Leases: the recurring-job evaluator's, held by one node until expires_at (database clock).
CREATE TABLE IF NOT EXISTS ojs_leases (
	name       varchar(64)  NOT NULL PRIMARY KEY,
	holder     varchar(255) NOT NULL,
	expires_at timestamptz  NOT NULL
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
	name           varchar(255) NOT NULL PRIMARY KEY,
	paused         boolean      NOT NULL DEFAULT false,
	paused_at      timestamptz,
	rate_limit     integer,
	rate_period_ms bigint,
	rate_tat       bigint,
	concurrency    integer,
	active_max     integer,
	counted_at     bigint
);
-- the rate-limit columns came after the first release: tables created before them get them here.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_limit integer;
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_period_ms bigint;
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS rate_tat bigint;
-- and the concurrency column after them.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS concurrency integer;
-- and active_max (the most jobs of the queue that can be active: the last count plus the jobs
-- claimed since; NULL until a claim counts them) after it.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS active_max integer;
-- and counted_at (when a claim last counted them, epoch ms; ends since took theirs off) after it.
ALTER TABLE ojs_queues ADD COLUMN IF NOT EXISTS counted_at bigint;

-- Limits of job types on all nodes together, one row per limited type named 'type:<job type>':
-- at most concurrency jobs of the type active at once, and at most concurrency_per_key of them with
-- one concurrency_key. A claim that may take jobs of a limited type locks the type's row and bounds
-- its active jobs with active_max, as for queues above (per key, it counts them at every claim).
CREATE TABLE IF NOT EXISTS ojs_limits (
	name        varchar(255) NOT NULL PRIMARY KEY,
	concurrency integer,
	concurrency_per_key integer,
	active_max  integer
);
-- active_max (as for queues) came after the table: tables created before it get it here.
ALTER TABLE ojs_limits ADD COLUMN IF NOT EXISTS active_max integer;

-- Worker nodes (ojs-admin-api.md §9): one row per running node, upserted on its heartbeat and
-- deleted when it stops cleanly; a node not seen for three heartbeat intervals is stale.
CREATE TABLE IF NOT EXISTS ojs_nodes (
	node_id      varchar(255) NOT NULL PRIMARY KEY,
	application  varchar(255),
	hostname     varchar(255) NOT NULL,
	queues       varchar(4000) NOT NULL,
	concurrency  integer NOT NULL,
	running_jobs integer NOT NULL,
	started_at   timestamptz NOT NULL,
	last_seen_at timestamptz NOT NULL,
	version      varchar(64),
	kind         varchar(16) NOT NULL
);

-- Statistics (ojs-admin-api.md §10): outcome counters per queue and minute, added to with each
-- batch of outcomes and pruned after the retention of completed jobs (at least 24 hours). Each
-- job store writes rows of its own (writer), so nodes never wait on one another's counters;
-- readers add them up.
CREATE TABLE IF NOT EXISTS ojs_stats (
	minute_at     timestamptz NOT NULL,
	queue         varchar(255) NOT NULL,
	writer        varchar(64) NOT NULL,
	completed     bigint NOT NULL,
	failed        bigint NOT NULL,
	retried       bigint NOT NULL,
	dead_lettered bigint NOT NULL,
	discarded     bigint NOT NULL,
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
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_id uuid;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_step integer;
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_role varchar(16);
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS workflow_type varchar(16);
ALTER TABLE ojs_jobs ADD COLUMN IF NOT EXISTS parent_results text;
CREATE INDEX IF NOT EXISTS ojs_jobs_workflow_idx ON ojs_jobs (workflow_id, workflow_step)
	WHERE workflow_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS ojs_workflows (
	id          uuid         NOT NULL PRIMARY KEY,
	type        varchar(16)  NOT NULL,
	name        varchar(255),
	state       varchar(16)  NOT NULL,
	total       integer      NOT NULL,
	completed   integer      NOT NULL,
	failed      integer      NOT NULL,
	metadata    text         NOT NULL,
	created_at  timestamptz  NOT NULL,
	finished_at timestamptz
);
