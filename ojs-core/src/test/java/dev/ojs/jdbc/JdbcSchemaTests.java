package dev.ojs.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JdbcSchema}, {@link JdbcStoreSettings} and {@link JdbcPlatform} that need no database.
 */
class JdbcSchemaTests {

	@ParameterizedTest
	@EnumSource(JdbcPlatform.class)
	void everyPlatformHasAScriptWithThePrefixSubstituted(JdbcPlatform platform) {
		String script = JdbcSchema.script(platform, new JdbcStoreSettings("billing_"));
		assertThat(script).contains("CREATE TABLE IF NOT EXISTS billing_jobs")
			.contains("billing_jobs_claim_idx")
			.contains("billing_jobs_unique_idx")
			.doesNotContain("ojs_jobs");
		assertThat(JdbcSchema.script(platform, JdbcStoreSettings.defaults())).contains("CREATE TABLE IF NOT EXISTS ojs_jobs");
	}

	@Test
	void prefixMustBeAnIdentifier() {
		assertThatIllegalArgumentException().isThrownBy(() -> new JdbcStoreSettings("x; DROP TABLE y; --"));
		assertThatIllegalArgumentException().isThrownBy(() -> new JdbcStoreSettings("1abc_"));
		assertThatIllegalArgumentException().isThrownBy(() -> new JdbcStoreSettings("a".repeat(41)));
		assertThat(new JdbcStoreSettings("a".repeat(40)).tableName()).isEqualTo("a".repeat(40) + "jobs");
	}

	@Test
	void platformFromProductName() {
		assertThat(JdbcPlatform.fromProductName("PostgreSQL")).isEqualTo(JdbcPlatform.POSTGRESQL);
		assertThat(JdbcPlatform.fromProductName("MariaDB")).isEqualTo(JdbcPlatform.MARIADB);
		assertThat(JdbcPlatform.fromProductName("MySQL")).isEqualTo(JdbcPlatform.MYSQL);
		assertThat(JdbcPlatform.fromProductName("H2")).isEqualTo(JdbcPlatform.H2);
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcPlatform.fromProductName("Oracle"));
	}

}
