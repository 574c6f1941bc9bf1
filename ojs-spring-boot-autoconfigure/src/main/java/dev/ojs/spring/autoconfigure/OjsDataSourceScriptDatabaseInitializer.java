package dev.ojs.spring.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

import dev.ojs.jdbc.JdbcPlatform;
import dev.ojs.jdbc.JdbcSchema;
import dev.ojs.jdbc.JdbcStoreSettings;

/**
 * {@link DataSourceScriptDatabaseInitializer} that creates the OJS job table and its
 * indexes, with the configured table prefix, from the engine's schema script for the
 * database ({@code dev/ojs/jdbc/schema-{platform}.sql}, see {@link JdbcSchema}). The script
 * only creates what is missing, so running it on every start is harmless. Being a
 * {@code DataSourceScriptDatabaseInitializer}, Spring Boot runs it before the beans that
 * depend on database initialization (the job store and the worker). May be registered as a
 * bean to override auto-configuration.
 */
public class OjsDataSourceScriptDatabaseInitializer extends DataSourceScriptDatabaseInitializer {

	private final String tablePrefix;

	/**
	 * @param dataSource the OJS data source
	 * @param properties the OJS properties
	 */
	public OjsDataSourceScriptDatabaseInitializer(DataSource dataSource, OjsProperties properties) {
		this(dataSource, getSettings(dataSource, properties.getJdbc().getInitializeSchema()),
				properties.getJdbc().getTablePrefix());
	}

	/**
	 * @param dataSource the OJS data source
	 * @param settings the initialization settings, see {@link #getSettings}
	 * @param tablePrefix the table prefix substituted into the script
	 */
	public OjsDataSourceScriptDatabaseInitializer(DataSource dataSource, DatabaseInitializationSettings settings,
			String tablePrefix) {
		super(dataSource, settings);
		this.tablePrefix = tablePrefix;
	}

	/**
	 * Settings that run the schema script of the data source's platform in the given mode.
	 * @param dataSource the OJS data source
	 * @param mode when to initialize
	 * @return the settings
	 */
	public static DatabaseInitializationSettings getSettings(DataSource dataSource, DatabaseInitializationMode mode) {
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		if (mode != DatabaseInitializationMode.NEVER) {
			settings.setSchemaLocations(List.of("classpath:" + JdbcSchema.location(JdbcPlatform.detect(dataSource))));
		}
		settings.setMode(mode);
		return settings;
	}

	/** Runs the platform's script with the table prefix substituted. */
	@Override
	protected void runScripts(Scripts scripts) {
		JdbcPlatform platform = JdbcPlatform.detect(getDataSource());
		String script = JdbcSchema.script(platform, new JdbcStoreSettings(this.tablePrefix));
		Resource resource = new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8),
				"OJS schema for " + platform.id() + " with table prefix '" + this.tablePrefix + "'");
		super.runScripts(new Scripts(List.of(resource)).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(StandardCharsets.UTF_8));
	}

}
