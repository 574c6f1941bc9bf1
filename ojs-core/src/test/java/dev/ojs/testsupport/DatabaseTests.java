package dev.ojs.testsupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of a test suite that runs against each database: a subclass names the
 * {@link #kind()}; the class gets its own {@link #schema} (random table prefix), dropped after
 * its last test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DatabaseTests {

	protected TestDatabases.Schema schema;

	protected abstract TestDatabases.Kind kind();

	@BeforeAll
	void createSchema() {
		this.schema = TestDatabases.schema(kind());
	}

	@AfterAll
	void dropSchema() {
		if (this.schema != null) {
			this.schema.close();
		}
	}

}
