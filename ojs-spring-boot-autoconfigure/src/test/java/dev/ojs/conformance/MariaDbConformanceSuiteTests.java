package dev.ojs.conformance;

import org.junit.jupiter.api.BeforeAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.testsupport.TestDatabases;

class MariaDbConformanceSuiteTests extends ConformanceSuiteTests {

	/** Skips the class (fails it under {@code CI=true}) before the application starts when the database is missing. */
	@BeforeAll
	static void database() {
		TestDatabases.database(TestDatabases.Kind.MARIADB);
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		configure(registry, TestDatabases.Kind.MARIADB);
	}

}
