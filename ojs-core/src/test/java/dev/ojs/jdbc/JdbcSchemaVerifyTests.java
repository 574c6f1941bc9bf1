package dev.ojs.jdbc;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@link JdbcSchema#verify}: start-up tells which tables are missing, on each database, with
 * the prefix as configured (unquoted identifiers are stored in upper case on H2, lower case on
 * PostgreSQL, as given on MariaDB).
 */
class JdbcSchemaVerifyTests {

	@ParameterizedTest
	@EnumSource(TestDatabases.Kind.class)
	void namesEveryMissingTable(TestDatabases.Kind kind) {
		try (TestDatabases.Schema schema = TestDatabases.schema(kind)) {
			assertThatNoException().isThrownBy(() -> JdbcSchema.verify(schema.dataSource(), schema.settings()));
			new JdbcTemplate(schema.dataSource()).execute("DROP TABLE " + schema.settings().queuesTableName());
			assertThatExceptionOfType(MissingTablesException.class)
				.isThrownBy(() -> JdbcSchema.verify(schema.dataSource(), schema.settings()))
				.satisfies((ex) -> assertThat(ex.getTables()).containsExactly(schema.tablePrefix() + "queues"));
			JdbcStoreSettings none = new JdbcStoreSettings("missing_" + schema.tablePrefix());
			assertThatExceptionOfType(MissingTablesException.class)
				.isThrownBy(() -> JdbcSchema.verify(schema.dataSource(), none))
				.satisfies((ex) -> assertThat(ex.getTables()).isEqualTo(JdbcSchema.tables(none)).hasSize(11))
				.satisfies((ex) -> assertThat(ex.getScriptLocation()).isEqualTo("dev/ojs/jdbc/schema-" + ex.getPlatform().id() + ".sql"))
				.withMessageContaining("missing_" + schema.tablePrefix() + "jobs");
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabases.Kind.class)
	void findsTablesOfAMixedCasePrefix(TestDatabases.Kind kind) {
		JdbcStoreSettings mixed = new JdbcStoreSettings("Mixed_" + Long.toString(System.nanoTime(), 36) + "_");
		TestDatabases.Database database = TestDatabases.database(kind);
		JdbcSchema.create(database.dataSource(), mixed);
		try {
			assertThatNoException().isThrownBy(() -> JdbcSchema.verify(database.dataSource(), mixed));
		}
		finally {
			JdbcSchema.drop(database.dataSource(), mixed);
		}
		assertThatExceptionOfType(MissingTablesException.class)
			.isThrownBy(() -> JdbcSchema.verify(database.dataSource(), mixed));
	}

}
