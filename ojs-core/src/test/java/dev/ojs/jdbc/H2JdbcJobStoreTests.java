package dev.ojs.jdbc;

import org.junit.jupiter.api.Test;

import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AbstractJdbcJobStoreTests} on H2.
 */
class H2JdbcJobStoreTests extends AbstractJdbcJobStoreTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.H2;
	}

	@Test
	void noVacuumWarning() {
		assertThat(this.schema.newStore().vacuumWarning()).isEmpty();
	}

}
