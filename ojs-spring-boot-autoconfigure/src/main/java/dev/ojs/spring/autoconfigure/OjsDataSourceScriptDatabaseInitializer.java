package dev.ojs.spring.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

import dev.ojs.jdbc.JdbcSchema;

/**
 * {@link DataSourceScriptDatabaseInitializer} that creates the OJS job table, with the
 * configured table prefix, from the engine's idempotent schema script for the database
 * ({@code dev/ojs/jdbc/schema-{platform}.sql}). Being a {@code DataSourceScriptDatabaseInitializer},
 * Spring Boot runs it before beans that depend on database initialization. May be
 * registered as a bean to override auto-configuration.
 */
public class OjsDataSourceScriptDatabaseInitializer extends DataSourceScriptDatabaseInitializer {

	private static final String SCHEMA_LOCATION = "classpath:dev/ojs/jdbc/schema-@@platform@@.sql";

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
		PlatformPlaceholderDatabaseDriverResolver platformResolver = new PlatformPlaceholderDatabaseDriverResolver()
			.withDriverPlatform(DatabaseDriver.MARIADB, "mariadb")
			.withDriverPlatform(DatabaseDriver.MYSQL, "mysql");
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		settings.setSchemaLocations(platformResolver.resolveAll(dataSource, SCHEMA_LOCATION));
		settings.setMode(mode);
		return settings;
	}

	@Override
	protected void runScripts(Scripts scripts) {
		List<Resource> prefixed = new java.util.ArrayList<>();
		for (Resource script : scripts) {
			prefixed.add(new ByteArrayResource(JdbcSchema.withPrefix(script, this.tablePrefix)
				.getBytes(StandardCharsets.UTF_8), script.getDescription()));
		}
		super.runScripts(new Scripts(prefixed).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(StandardCharsets.UTF_8));
	}

}
