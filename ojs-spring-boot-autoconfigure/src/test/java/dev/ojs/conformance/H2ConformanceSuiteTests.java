package dev.ojs.conformance;

import org.junit.jupiter.api.BeforeAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.testsupport.TestDatabases;

class H2ConformanceSuiteTests extends ConformanceSuiteTests {

	/** Skips the class (fails it under {@code CI=true}) before the application starts when the database is missing. */
	@BeforeAll
	static void database() {
		TestDatabases.database(TestDatabases.Kind.H2);
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		configure(registry, TestDatabases.Kind.H2);
	}

}
