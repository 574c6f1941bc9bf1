package dev.ojs.bench.peer;

import java.time.Duration;
import java.util.stream.IntStream;

import com.zaxxer.hikari.HikariDataSource;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.StorageProviderUtils.DatabaseOptions;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;
import org.jspecify.annotations.Nullable;

import dev.ojs.bench.BenchDatabase;
import dev.ojs.bench.BenchmarkOptions;

/**
 * JobRunr, open-source edition, on its PostgreSQL storage provider: {@code --concurrency}
 * workers and the shortest poll interval the open-source edition accepts (5 s; it refuses
 * less). Jobs are {@link JobRequest}s (no lambda analysis), enqueued in batches through
 * {@link JobRequestScheduler#enqueue(java.util.stream.Stream)}. The retry scenario does not
 * run: JobRunr retries after seconds at the least.
 */
final class JobRunrPeer implements Peer {

	/** The open-source edition's shortest poll interval. */
	static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

	/** The handler JobRunr's activator hands out; it reports to the current probe. */
	static final NoopHandler HANDLER = new NoopHandler();

	private final BenchmarkOptions options;

	private final HikariDataSource dataSource;

	private final Jackson3JsonMapper jsonMapper = new Jackson3JsonMapper();

	private final PostgresStorageProvider storage;

	private final JobRequestScheduler scheduler;

	private @Nullable BackgroundJobServer server;

	JobRunrPeer(BenchmarkOptions options, String prefix) {
		this.options = options;
		this.dataSource = BenchDatabase.dataSource(options.jdbcUrl(), options.poolSize(), "bench-jobrunr");
		this.storage = new PostgresStorageProvider(this.dataSource, prefix, DatabaseOptions.CREATE);
		this.storage.setJobMapper(new JobMapper(this.jsonMapper));
		this.scheduler = new JobRequestScheduler(this.storage);
	}

	@Override
	public String configuration() {
		return "JobRunr 8.7.0 (open source): PostgreSQL storage provider, " + this.options.concurrency()
				+ " workers, poll interval " + POLL_INTERVAL + " (the shortest allowed), JobRequest jobs, Jackson 3;"
				+ " no retry scenario (retries wait seconds)";
	}

	@Override
	public boolean retries() {
		return false;
	}

	@Override
	public void enqueueBatch(long enqueuedAtMicros, int count, boolean failOnce) {
		this.scheduler.enqueue(IntStream.range(0, count).mapToObj((i) -> new NoopRequest(enqueuedAtMicros)));
	}

	@Override
	public void startWorker(PeerProbe probe) {
		HANDLER.probe = probe;
		BackgroundJobServer server = new BackgroundJobServer(this.storage, this.jsonMapper, new JobActivator() {
			@Override
			@SuppressWarnings("unchecked")
			public <T> T activateJob(Class<T> type) {
				return (T) HANDLER;
			}
		}, BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
			.andWorkerCount(this.options.concurrency())
			.andPollInterval(POLL_INTERVAL));
		this.server = server;
		server.start();
	}

	@Override
	public long finished() {
		return this.storage.countJobs(StateName.SUCCEEDED);
	}

	@Override
	public void close() {
		BackgroundJobServer server = this.server;
		if (server != null) {
			server.stop();
		}
		this.storage.close();
		this.dataSource.close();
		HANDLER.probe = null;
	}

	/** A no-op job: its enqueue time in microseconds. */
	public record NoopRequest(long enqueuedAtMicros) implements JobRequest {

		@Override
		public Class<NoopHandler> getJobRequestHandler() {
			return NoopHandler.class;
		}

	}

	/** Runs {@link NoopRequest}s: reports the start and returns. */
	public static final class NoopHandler implements JobRequestHandler<NoopRequest> {

		volatile @Nullable PeerProbe probe;

		@Override
		public void run(NoopRequest request) {
			PeerProbe probe = this.probe;
			if (probe != null) {
				probe.started(request.enqueuedAtMicros());
			}
		}

	}

}
