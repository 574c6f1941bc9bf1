package dev.ojs.spring.autoconfigure;

import javax.sql.DataSource;

import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.autoconfigure.init.OnDatabaseInitializationCondition;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.unit.DataSize;

import dev.ojs.admin.AdminStore;
import dev.ojs.jdbc.JdbcAdminStore;
import dev.ojs.jdbc.JdbcJobStore;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;
import dev.ojs.jdbc.JdbcWorkflowStore;
import dev.ojs.jdbc.MissingTablesException;
import dev.ojs.job.JobStore;
import dev.ojs.spring.HandlerDirectory;
import dev.ojs.spring.JobErrorClassifier;
import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsDeadLetters;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJobRegistry;
import dev.ojs.spring.OjsJobs;
import dev.ojs.spring.OjsQueues;
import dev.ojs.spring.OjsStatistics;
import dev.ojs.spring.OjsTemplate;
import dev.ojs.spring.OjsTypeLimits;
import dev.ojs.spring.OjsWorkerNodes;
import dev.ojs.spring.OjsWorkflows;
import dev.ojs.spring.observation.JobEnqueueObservationConvention;
import dev.ojs.spring.observation.JobProcessObservationConvention;
import dev.ojs.worker.Worker;
import dev.ojs.workflow.WorkflowStore;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for OJS jobs: the JDBC job store on the
 * application's {@link DataSource} (or the {@link OjsDataSource @OjsDataSource} one), the
 * job table's initialization, the registry of {@link OjsJob @OjsJob} handlers, and the
 * services every edge calls: {@link OjsTemplate}, {@link OjsJobs}, {@link OjsQueues},
 * {@link OjsDeadLetters} and, with the JDBC store, {@link OjsWorkerNodes} and
 * {@link OjsStatistics}. The worker is configured by
 * {@link OjsWorkerAutoConfiguration}.
 * <p>
 * With an {@link ObservationRegistry} bean, enqueues and attempts are observed
 * ({@link dev.ojs.spring.observation.OjsObservationDocumentation}), with the conventions of
 * the {@link JobEnqueueObservationConvention} and {@link JobProcessObservationConvention}
 * beans, if any.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
		"org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration" })
@ConditionalOnClass({ DataSource.class, JdbcTemplate.class, JdbcJobStore.class })
@ConditionalOnBooleanProperty(name = "ojs.enabled", matchIfMissing = true)
@Conditional(OjsAutoConfiguration.OnOjsDataSourceCondition.class)
@EnableConfigurationProperties(OjsProperties.class)
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class OjsAutoConfiguration {

	/**
	 * The store, once its tables exist: a missing one fails start-up with a
	 * {@link MissingTablesException} ({@link MissingTablesFailureAnalyzer}) rather than with
	 * the first statement's SQL error. A database that cannot be reached yet is not checked.
	 */
	@Bean
	@ConditionalOnMissingBean(JobStore.class)
	JdbcJobStore ojsJobStore(ObjectProvider<DataSource> dataSource,
			@OjsDataSource ObjectProvider<DataSource> ojsDataSource, OjsProperties properties) {
		DataSource jobsDataSource = getDataSource(dataSource, ojsDataSource);
		JdbcStoreSettings settings = new JdbcStoreSettings(properties.getJdbc().getTablePrefix(),
				properties.getJdbc().isDurableClaims());
		try {
			JdbcSchema.verify(jobsDataSource, settings);
		}
		catch (CannotGetJdbcConnectionException ex) {
			LogFactory.getLog(OjsAutoConfiguration.class).debug("OJS could not check that its tables exist", ex);
		}
		return new JdbcJobStore(jobsDataSource, settings);
	}

	@Bean
	@ConditionalOnMissingBean(OjsJobRegistry.class)
	OjsJobHandlerRegistry ojsJobRegistry(OjsProperties properties, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<JobErrorClassifier> classifiers, ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<JobProcessObservationConvention> observationConvention, Environment environment) {
		OjsJobHandlerRegistry registry = new OjsJobHandlerRegistry(properties.defaultRetryPolicy(),
				properties.getVisibilityTimeout(), getJsonMapper(jsonMapper),
				() -> classifiers.orderedStream().toList());
		registry.setObservationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
		registry.setObservationConvention(observationConvention.getIfUnique());
		registry.setSizeLimits(jobSizeLimits(properties, environment));
		return registry;
	}

	@Bean
	@ConditionalOnMissingBean
	HandlerDirectory ojsHandlerDirectory(OjsJobRegistry registry, JobStore jobStore, OjsProperties properties,
			Environment environment) {
		return new HandlerDirectory(registry, jobStore, properties.getRetry().toPolicy(),
				environment.getProperty("spring.application.name"));
	}

	@Bean
	@ConditionalOnMissingBean
	OjsTemplate ojsTemplate(JobStore jobStore, HandlerDirectory handlers, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<JobEnqueueObservationConvention> observationConvention, OjsProperties properties,
			Environment environment) {
		OjsTemplate template = new OjsTemplate(jobStore, handlers, getJsonMapper(jsonMapper));
		template.setObservationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
		template.setObservationConvention(observationConvention.getIfUnique());
		template.setSizeLimits(jobSizeLimits(properties, environment));
		return template;
	}

	@Bean
	@ConditionalOnMissingBean
	OjsQueues ojsQueues(JobStore jobStore, ObjectProvider<AdminStore> adminStore, ObjectProvider<Worker> worker,
			OjsProperties properties) {
		OjsQueues queues = new OjsQueues(jobStore, adminStore.getIfAvailable(),
				() -> worker.ifAvailable(Worker::refreshPausedQueues));
		// the configured limits hold before any worker claims
		properties.rateLimits().forEach(queues::setRateLimit);
		properties.getQueues().forEach((queue, settings) -> {
			if (settings.getConcurrency() != null) {
				queues.setConcurrency(queue, settings.getConcurrency());
			}
		});
		return queues;
	}

	@Bean
	@ConditionalOnMissingBean
	OjsTypeLimits ojsTypeLimits(JobStore jobStore, ObjectProvider<AdminStore> adminStore) {
		return new OjsTypeLimits(jobStore, adminStore.getIfAvailable());
	}

	@Bean
	@ConditionalOnBean(JdbcJobStore.class)
	@ConditionalOnMissingBean(WorkflowStore.class)
	JdbcWorkflowStore ojsWorkflowStore(JdbcJobStore jobStore, ApplicationEventPublisher publisher) {
		JdbcWorkflowStore store = new JdbcWorkflowStore(jobStore);
		// workflow.started, .step_completed, .completed, .failed as Spring events, after each commit
		store.setListener(new ApplicationEventWorkflowListener(publisher, store, jobStore));
		return store;
	}

	@Bean
	@ConditionalOnBean({ JdbcJobStore.class, WorkflowStore.class })
	@ConditionalOnMissingBean
	OjsWorkflows ojsWorkflows(OjsTemplate template, JdbcJobStore jobStore, WorkflowStore workflowStore,
			ObjectProvider<JsonMapper> jsonMapper) {
		// a workflow's jobs and row in one transaction, which joins the caller's
		return new OjsWorkflows(template, jobStore, workflowStore,
				new TransactionTemplate(new DataSourceTransactionManager(jobStore.dataSource())), getJsonMapper(jsonMapper));
	}

	@Bean
	@ConditionalOnMissingBean
	OjsJobs ojsJobs(JobStore jobStore, HandlerDirectory handlers, ObjectProvider<AdminStore> adminStore) {
		return new OjsJobs(jobStore, handlers, adminStore.getIfAvailable());
	}

	/**
	 * {@code ojs.max-args-size} and {@code ojs.max-meta-size}, each else the deprecated
	 * {@code ojs.http.*} property it replaces, else the default.
	 */
	static JobSizeLimits jobSizeLimits(OjsProperties properties, Environment environment) {
		Binder binder = Binder.get(environment);
		DataSize args = size(binder, "max-args-size", properties.getMaxArgsSize());
		DataSize meta = size(binder, "max-meta-size", properties.getMaxMetaSize());
		return new JobSizeLimits(args.toBytes(), meta.toBytes(), properties.getMaxResultSize().toBytes());
	}

	private static DataSize size(Binder binder, String name, DataSize bound) {
		return binder.bind("ojs." + name, DataSize.class).isBound() ? bound
				: binder.bind("ojs.http." + name, DataSize.class).orElse(bound);
	}

	/** The Admin API's queries, which the dead letters, worker nodes and statistics read too. */
	@Bean
	@ConditionalOnBean(JdbcJobStore.class)
	@ConditionalOnMissingBean(AdminStore.class)
	JdbcAdminStore ojsAdminStore(JdbcJobStore jobStore) {
		return new JdbcAdminStore(jobStore);
	}

	@Bean
	@ConditionalOnMissingBean
	OjsDeadLetters ojsDeadLetters(JobStore jobStore, ObjectProvider<AdminStore> admin) {
		return new OjsDeadLetters(jobStore, admin.getIfAvailable());
	}

	@Bean
	@ConditionalOnBean(AdminStore.class)
	@ConditionalOnMissingBean
	OjsWorkerNodes ojsWorkerNodes(AdminStore admin) {
		return new OjsWorkerNodes(admin);
	}

	@Bean
	@ConditionalOnBean(AdminStore.class)
	@ConditionalOnMissingBean
	OjsStatistics ojsStatistics(AdminStore admin) {
		return new OjsStatistics(admin);
	}

	static DataSource getDataSource(ObjectProvider<DataSource> dataSource, ObjectProvider<DataSource> ojsDataSource) {
		DataSource qualified = ojsDataSource.getIfAvailable();
		return (qualified != null) ? qualified : dataSource.getObject();
	}

	private static JsonMapper getJsonMapper(ObjectProvider<JsonMapper> jsonMapper) {
		return jsonMapper.getIfUnique(JsonMapper::new);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(DataSourceScriptDatabaseInitializer.class)
	static class OjsDataSourceInitializationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@Conditional(OnOjsDataSourceInitializationCondition.class)
		OjsDataSourceScriptDatabaseInitializer ojsDataSourceScriptDatabaseInitializer(
				ObjectProvider<DataSource> dataSource, @OjsDataSource ObjectProvider<DataSource> ojsDataSource,
				OjsProperties properties) {
			return new OjsDataSourceScriptDatabaseInitializer(getDataSource(dataSource, ojsDataSource), properties);
		}

	}

	static class OnOjsDataSourceInitializationCondition extends OnDatabaseInitializationCondition {

		OnOjsDataSourceInitializationCondition() {
			super("OJS", "ojs.jdbc.initialize-schema");
		}

	}

	/**
	 * Matches when there is a single {@link DataSource} candidate, or one qualified with
	 * {@link OjsDataSource @OjsDataSource}.
	 */
	static class OnOjsDataSourceCondition extends AnyNestedCondition {

		OnOjsDataSourceCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnSingleCandidate(DataSource.class)
		static class SingleDataSource {

		}

		@ConditionalOnBean(value = DataSource.class, annotation = OjsDataSource.class)
		static class OjsQualifiedDataSource {

		}

	}

}
