package dev.ojs.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JdbcSchema} and {@link JdbcPlatform} that need no database.
 */
class JdbcSchemaTests {

	@ParameterizedTest
	@EnumSource(JdbcPlatform.class)
	void everyPlatformHasAScriptWithThePrefixSubstituted(JdbcPlatform platform) {
		String script = JdbcSchema.script(platform, "billing_");
		assertThat(script).contains("CREATE TABLE IF NOT EXISTS billing_jobs")
			.contains("billing_jobs_claim_idx")
			.contains("billing_jobs_unique_idx")
			.doesNotContain("ojs_jobs");
		assertThat(JdbcSchema.script(platform, "ojs_")).contains("CREATE TABLE IF NOT EXISTS ojs_jobs");
	}

	@Test
	void prefixMustBeAnIdentifier() {
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcSchema.script(JdbcPlatform.H2, "x; DROP TABLE y; --"));
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcSchema.script(JdbcPlatform.H2, "1abc_"));
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcSchema.script(JdbcPlatform.H2, "a".repeat(41)));
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
