package dev.ojs.spring.autoconfigure;

import java.time.Duration;
import java.util.Arrays;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.admin.JobQuery;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.jdbc.MissingTablesException;
import dev.ojs.job.JobStore;
import dev.ojs.job.RateLimit;
import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsWorker;
import dev.ojs.worker.Worker;
import dev.ojs.worker.WorkerSettings;
import dev.ojs.worker.WorkerStore;
import dev.ojs.worker.WorkerStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Conditions of {@link OjsAutoConfiguration} and {@link OjsWorkerAutoConfiguration}.
 */
class OjsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = OjsContexts.onEmbeddedDatabase();

	@Test
	void singleDataSourceConfiguresEverything() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.hasSingleBean(JdbcJobStore.class)
			.hasSingleBean(OjsJobRegistry.class)
			.hasSingleBean(OjsTemplate.class)
			.hasSingleBean(OjsProperties.class)
			.hasSingleBean(OjsDataSourceScriptDatabaseInitializer.class)
			.hasSingleBean(Worker.class)
			.hasSingleBean(OjsWorker.class)
			.hasSingleBean(ApplicationEventJobListener.class));
	}

	@Test
	void servicesOfEveryEdgeShareTheStoresQueries() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(OjsJobs.class).hasSingleBean(OjsQueues.class);
			assertThat(context.getBean(OjsQueues.class).hasStatistics()).isTrue();
			assertThat(context.getBean(OjsJobs.class).page(JobQuery.ALL).items()).isEmpty();
		});
	}

	@Test
	void jobSizeLimitsDefaultAndFollowTheirPropertiesOrTheDeprecatedHttpOnes() {
		this.contextRunner.run((context) -> assertThat(context.getBean(OjsTemplate.class).getSizeLimits())
			.isEqualTo(JobSizeLimits.DEFAULTS));
		this.contextRunner.withPropertyValues("ojs.max-args-size=2KB", "ojs.http.max-meta-size=100B")
			.run((context) -> assertThat(context.getBean(OjsTemplate.class).getSizeLimits())
				.isEqualTo(new JobSizeLimits(2048, 100)));
		this.contextRunner.withPropertyValues("ojs.max-args-size=2KB", "ojs.http.max-args-size=1KB")
			.run((context) -> assertThat(context.getBean(OjsTemplate.class).getSizeLimits().maxArgsBytes())
				.isEqualTo(2048));
	}

	@Test
	void workerRunsWhileTheContextIsOpenAndStopsWithIt() {
		this.contextRunner.withPropertyValues("ojs.worker.shutdown-grace-period=1s").run((context) -> {
			Worker worker = context.getBean(Worker.class);
			assertThat(worker.isRunning()).isTrue();
			assertThat(context.getBean(OjsWorker.class).isAutoStartup()).isTrue();
			assertThat(context.getBean(OjsWorker.class).getPhase()).isEqualTo(Integer.MAX_VALUE);
			context.close();
			assertThat(worker.isRunning()).isFalse();
		});
	}

	@Test
	void autoStartupFalseLeavesTheWorkerStoppedUntilStarted() {
		this.contextRunner.withPropertyValues("ojs.worker.auto-startup=false", "ojs.worker.shutdown-grace-period=1s")
			.run((context) -> {
				OjsWorker worker = context.getBean(OjsWorker.class);
				assertThat(worker.isAutoStartup()).isFalse();
				assertThat(worker.isRunning()).isFalse();
				assertThat(worker.status().running()).isFalse();
				worker.start();
				assertThat(worker.isRunning()).isTrue();
				assertThat(context.getBean(Worker.class).isRunning()).isTrue();
				context.close();
				assertThat(worker.isRunning()).isFalse();
			});
	}

	@Test
	void workerClaimsFromConfiguredAndHandlerQueues() {
		this.contextRunner.withBean(QueuedJobs.class)
			.withPropertyValues("ojs.worker.concurrency=3", "ojs.worker.queues.emails=2", "ojs.worker.queues.bulk=0",
					"ojs.worker.node-id=node-1")
			.run((context) -> {
				WorkerStatus status = context.getBean(Worker.class).status();
				assertThat(status.nodeId()).isEqualTo("node-1");
				assertThat(status.queues()).containsExactlyInAnyOrderEntriesOf(
						java.util.Map.of("emails", 2, "bulk", 3, "reports", 3));
				assertThat(status.types()).containsExactly("report.build");
			});
	}

	@Test
	void workerClaimsFromDefaultWithoutConfiguredQueues() {
		this.contextRunner.withBean(QueuedJobs.class)
			.run((context) -> assertThat(context.getBean(Worker.class).status().queues())
				.containsExactlyInAnyOrderEntriesOf(java.util.Map.of("default", WorkerSettings.DEFAULT_QUEUE_CONCURRENCY,
						"reports", WorkerSettings.DEFAULT_QUEUE_CONCURRENCY)));
	}

	@Test
	void jobStoreAndWorkerDependOnDatabaseInitialization() {
		this.contextRunner.run((context) -> {
			String[] storeDependsOn = context.getBeanFactory().getBeanDefinition("ojsJobStore").getDependsOn();
			String[] workerDependsOn = context.getBeanFactory().getBeanDefinition("ojsWorker").getDependsOn();
			assertThat(storeDependsOn).contains("ojsDataSourceScriptDatabaseInitializer");
			assertThat(workerDependsOn).contains("ojsDataSourceScriptDatabaseInitializer");
		});
	}

	@Test
	void noDataSourceBacksOff() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OjsAutoConfiguration.class, OjsWorkerAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(JobStore.class)
				.doesNotHaveBean(OjsTemplate.class)
				.doesNotHaveBean(Worker.class));
	}

	@Test
	void withoutSpringJdbcBacksOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(DataSource.class)
				.doesNotHaveBean(JobStore.class)
				.doesNotHaveBean(Worker.class));
	}

	@Test
	void withoutScriptInitializationSupportThereIsNoInitializer() {
		DataSource dataSource = embedded();
		JdbcSchema.create(dataSource, JdbcStoreSettings.defaults());
		this.contextRunner.withClassLoader(new FilteredClassLoader(DataSourceScriptDatabaseInitializer.class))
			.withBean(DataSource.class, () -> dataSource)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(OjsDataSourceScriptDatabaseInitializer.class)
				.hasSingleBean(JobStore.class));
	}

	@Test
	void theApplicationsJsonMapperSerialisesArguments() {
		this.contextRunner.withPropertyValues("ojs.worker.enabled=false")
			.withBean(JsonMapper.class,
					() -> JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build())
			.run((context) -> {
				OjsTemplate template = context.getBean(OjsTemplate.class);
				String id = template.enqueue("elsewhere", new Person("Ada"));
				assertThat(template.getJob(id).orElseThrow().argsJson()).isEqualTo("[{\"first_name\":\"Ada\"}]");
			});
	}

	@Test
	void tablePrefixNamesTheCreatedTable() {
		this.contextRunner.withPropertyValues("ojs.jdbc.table-prefix=custom_").run((context) -> {
			Integer count = new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
					"SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE LOWER(TABLE_NAME) = 'custom_jobs'",
					Integer.class);
			assertThat(count).isEqualTo(1);
			assertThat(hasJobTable(context.getBean(DataSource.class))).isFalse();
		});
	}

	@Test
	void claimsSkipTheirFlushUnlessDurableClaimsAreSet() {
		this.contextRunner.run((context) -> assertThat(context.getBean(JdbcJobStore.class).settings().durableClaims())
			.isFalse());
		this.contextRunner.withPropertyValues("ojs.jdbc.durable-claims=true")
			.run((context) -> assertThat(context.getBean(JdbcJobStore.class).settings().durableClaims()).isTrue());
	}

	@Test
	void disabledBacksOffEntirely() {
		this.contextRunner.withPropertyValues("ojs.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(JobStore.class)
				.doesNotHaveBean(OjsTemplate.class)
				.doesNotHaveBean(OjsJobRegistry.class)
				.doesNotHaveBean(OjsDataSourceScriptDatabaseInitializer.class)
				.doesNotHaveBean(Worker.class)
				.doesNotHaveBean(OjsWorker.class));
	}

	@Test
	void workerDisabledLeavesAnEnqueueOnlyNode() {
		this.contextRunner.withPropertyValues("ojs.worker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(JobStore.class)
				.hasSingleBean(OjsTemplate.class)
				.hasSingleBean(OjsJobRegistry.class)
				.doesNotHaveBean(Worker.class)
				.doesNotHaveBean(OjsWorker.class)
				.doesNotHaveBean(ApplicationEventJobListener.class));
	}

	@Test
	void initializeSchemaNeverHasNoInitializer() {
		DataSource dataSource = embedded();
		JdbcSchema.create(dataSource, JdbcStoreSettings.defaults());
		this.contextRunner.withBean(DataSource.class, () -> dataSource)
			.withPropertyValues("ojs.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(OjsDataSourceScriptDatabaseInitializer.class)
				.hasSingleBean(JobStore.class));
	}

	@Test
	void initializeSchemaNeverWithoutTheTablesFailsNamingThem() {
		this.contextRunner.withPropertyValues("ojs.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(MissingTablesException.class)
				.hasMessageContaining("ojs_jobs, ojs_job_errors"));
	}

	@Test
	void twoDataSourcesWithoutQualifierBackOff() {
		new ApplicationContextRunner().withUserConfiguration(TwoDataSources.class)
			.withConfiguration(AutoConfigurations.of(OjsAutoConfiguration.class, OjsWorkerAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(JobStore.class)
				.doesNotHaveBean(Worker.class));
	}

	@Test
	void ojsDataSourceQualifierSelectsTheDataSource() {
		new ApplicationContextRunner().withUserConfiguration(TwoDataSources.class, QualifiedDataSource.class)
			.withConfiguration(AutoConfigurations.of(OjsAutoConfiguration.class, OjsWorkerAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(JobStore.class).hasSingleBean(Worker.class);
				assertThat(hasJobTable(context.getBean("ojsDataSource", DataSource.class))).isTrue();
				assertThat(hasJobTable(context.getBean("first", DataSource.class))).isFalse();
			});
	}

	@Test
	void qualifierWinsOverThePrimaryDataSource() {
		this.contextRunner.withUserConfiguration(PrimaryDataSource.class, QualifiedDataSource.class).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(JobStore.class);
			assertThat(hasJobTable(context.getBean("ojsDataSource", DataSource.class))).isTrue();
			assertThat(hasJobTable(context.getBean("primary", DataSource.class))).isFalse();
		});
	}

	@Test
	void nonDefaultCandidateOjsDataSourceLeavesTheApplicationDataSourceAutoConfigured() {
		this.contextRunner.withUserConfiguration(SeparateOjsDataSource.class).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(JobStore.class).hasSingleBean(Worker.class);
			assertThat(context).hasBean("dataSource");
			assertThat(context.getBean(DataSource.class)).isSameAs(context.getBean("dataSource"));
			assertThat(hasJobTable(context.getBean("ojsDataSource", DataSource.class))).isTrue();
			assertThat(hasJobTable(context.getBean("dataSource", DataSource.class))).isFalse();
		});
	}

	/** ojs-queue-config.md §8.3: configured rate limits are stored at start-up, for every node and worker. */
	@Test
	void configuredRateLimitsAreStoredAtStartUp() {
		this.contextRunner
			.withPropertyValues("ojs.rate-limits.email.limit=100", "ojs.rate-limits.email.period=1m",
					"ojs.rate-limits.sms.limit=5")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OjsQueues queues = context.getBean(OjsQueues.class);
				assertThat(queues.rateLimit("email")).isEqualTo(new RateLimit(100, Duration.ofMinutes(1)));
				assertThat(queues.rateLimit("sms")).isEqualTo(RateLimit.perSecond(5));
				assertThat(queues.rateLimit("default")).isNull();
			});
	}

	@Test
	void invalidRateLimitFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("ojs.rate-limits.email.limit=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("ojs.rate-limits.email")
				.hasStackTraceContaining("limit must be at least 1");
		});
		this.contextRunner.withPropertyValues("ojs.rate-limits.email.period=1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("ojs.rate-limits.email")
				.hasStackTraceContaining("needs 'limit'");
		});
		this.contextRunner.withPropertyValues("ojs.rate-limits.email.limit=5", "ojs.rate-limits.email.period=2d")
			.run((context) -> assertThat(context.getStartupFailure()).hasStackTraceContaining("period must be from"));
	}

	/** ojs-queue-config.md §6.2: {@code ojs.queues.<name>.concurrency} is stored at start-up; below 1 fails naming it. */
	@Test
	void configuredQueueConcurrencyIsStoredAtStartUpAndValidated() {
		this.contextRunner.withPropertyValues("ojs.queues.reports.concurrency=3", "ojs.queues.other.concurrency=")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OjsQueues queues = context.getBean(OjsQueues.class);
				assertThat(queues.concurrency("reports")).isEqualTo(3);
				assertThat(queues.concurrencies()).containsOnlyKeys("reports");
			});
		this.contextRunner.withPropertyValues("ojs.queues.reports.concurrency=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("ojs.queues.reports.concurrency")
				.hasStackTraceContaining("must be at least 1");
		});
		this.contextRunner.withPropertyValues("ojs.queues.Bad_Queue.concurrency=2")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void userJobStoreThatCannotRunAWorkerFailsStartUpAndNamesTheWayOut() {
		this.contextRunner.withBean("myStore", JobStore.class, () -> mock(JobStore.class)).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("cannot run a worker")
				.hasMessageContaining(WorkerStore.class.getName())
				.hasMessageContaining("ojs.worker.enabled=false");
		});
	}

	@Test
	void userJobStoreWithoutAWorkerRunsEnqueueOnly() {
		this.contextRunner.withBean("myStore", JobStore.class, () -> mock(JobStore.class))
			.withPropertyValues("ojs.worker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(OjsTemplate.class)
				.doesNotHaveBean(JdbcJobStore.class)
				.doesNotHaveBean(Worker.class));
	}

	@Test
	void userBeansWin() {
		this.contextRunner.withUserConfiguration(UserBeans.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(OjsTemplate.class)).isSameAs(context.getBean("myTemplate"));
			assertThat(context.getBean(Worker.class)).isSameAs(context.getBean("myWorker"));
			assertThat(context.getBean(JobStore.class)).isSameAs(context.getBean("myStore"));
			assertThat(context).getBeanNames(OjsWorker.class).hasSize(1);
		});
	}

	@Test
	void autoConfigurationsAreRegistered() throws Exception {
		String imports = new String(getClass().getClassLoader()
			.getResourceAsStream(
					"META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")
			.readAllBytes());
		assertThat(Arrays.asList(imports.split("\\R"))).contains(OjsAutoConfiguration.class.getName(),
				OjsWorkerAutoConfiguration.class.getName());
	}

	static boolean hasJobTable(DataSource dataSource) {
		Integer count = new JdbcTemplate(dataSource).queryForObject(
				"SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE LOWER(TABLE_NAME) = 'ojs_jobs'", Integer.class);
		return count != null && count > 0;
	}

	private static DataSource embedded() {
		return DataSourceBuilder.create()
			.url("jdbc:h2:mem:" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
			.username("sa")
			.build();
	}

	record Person(String firstName) {
	}

	static class QueuedJobs {

		@OjsJob(type = "report.build", queue = "reports")
		void build() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDataSources {

		@Bean
		DataSource first() {
			return embedded();
		}

		@Bean
		DataSource second() {
			return embedded();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryDataSource {

		@Bean
		@Primary
		DataSource primary() {
			return embedded();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class QualifiedDataSource {

		@Bean
		@OjsDataSource
		DataSource ojsDataSource() {
			return embedded();
		}

	}

	/** The two-DataSource pattern of docs/configuration.md. */
	@Configuration(proxyBeanMethods = false)
	static class SeparateOjsDataSource {

		@Bean(defaultCandidate = false)
		@OjsDataSource
		DataSource ojsDataSource() {
			return embedded();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		@Bean
		JdbcJobStore myStore(DataSource dataSource) {
			return new JdbcJobStore(dataSource, dev.ojs.jdbc.JdbcStoreSettings.defaults());
		}

		@Bean
		OjsTemplate myTemplate(JobStore store, OjsJobRegistry registry) {
			return new OjsTemplate(store, registry, dev.ojs.retry.RetryPolicy.DEFAULT, new JsonMapper());
		}

		@Bean
		Worker myWorker(JdbcJobStore store) {
			return new Worker(store, java.util.List.of(), dev.ojs.worker.WorkerSettings.defaults(),
					dev.ojs.worker.JobListener.NONE, dev.ojs.worker.RetryDelayOverride.NONE);
		}

	}

}
