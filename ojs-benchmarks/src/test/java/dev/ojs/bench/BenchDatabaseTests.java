package dev.ojs.bench;

import java.sql.Connection;
import java.sql.Statement;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BenchDatabaseTests {

	@Test
	void parsesAndRewritesPostgresUrls() {
		String url = "jdbc:postgresql://127.0.0.1:5432/ojs_bench?user=postgres";
		assertThat(BenchDatabase.databaseName(url)).isEqualTo("ojs_bench");
		assertThat(BenchDatabase.withDatabase(url, "postgres"))
			.isEqualTo("jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
		assertThat(BenchDatabase.withDatabase("jdbc:postgresql://db/x", "postgres"))
			.isEqualTo("jdbc:postgresql://db/postgres");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchDatabase.databaseName("jdbc:h2:mem:x"));
	}

	@Test
	void tablePrefixesAreFreshValidIdentifiers() {
		String prefix = BenchDatabase.newTablePrefix("bench");
		assertThat(prefix).matches("bench_[a-z0-9]{6}_").hasSizeLessThanOrEqualTo(40);
		assertThat(BenchDatabase.newTablePrefix("bench")).isNotEqualTo(prefix);
		assertThatIllegalArgumentException().isThrownBy(() -> BenchDatabase.newTablePrefix("1bad"));
	}

	@Test
	void createsMissingDatabaseAndDropsOnlyPrefixedObjects() throws Exception {
		String url = BenchTestDatabase.postgresUrl();
		String scratch = BenchDatabase.newTablePrefix("benchdb").replaceAll("_$", "");
		String scratchUrl = BenchDatabase.withDatabase(url, scratch);
		try {
			assertThat(BenchDatabase.ensureDatabase(scratchUrl)).isTrue();
			assertThat(BenchDatabase.ensureDatabase(scratchUrl)).isFalse();
			String prefix = BenchDatabase.newTablePrefix("bench");
			String other = BenchDatabase.newTablePrefix("bench");
			try (HikariDataSource dataSource = BenchDatabase.dataSource(scratchUrl, 2, "test")) {
				try (Connection connection = dataSource.getConnection();
						Statement statement = connection.createStatement()) {
					statement.execute("CREATE TABLE " + prefix + "jobs (id int)");
					statement.execute("CREATE TABLE " + prefix + "side (id int)");
					statement.execute("CREATE TABLE " + other + "jobs (id int)");
					statement.execute("CREATE FUNCTION " + prefix
							+ "notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$");
				}
				assertThat(BenchDatabase.dropPrefixed(dataSource, prefix)).containsExactlyInAnyOrder(prefix + "jobs",
						prefix + "side", prefix + "notify()");
				assertThat(BenchDatabase.dropPrefixed(dataSource, prefix)).isEmpty();
				assertThat(BenchDatabase.dropPrefixed(dataSource, other)).containsExactly(other + "jobs");
			}
		}
		finally {
			try (Connection connection = java.sql.DriverManager
				.getConnection(BenchDatabase.withDatabase(url, "postgres"));
					Statement statement = connection.createStatement()) {
				statement.execute("DROP DATABASE IF EXISTS " + scratch + " WITH (FORCE)");
			}
		}
	}

}
