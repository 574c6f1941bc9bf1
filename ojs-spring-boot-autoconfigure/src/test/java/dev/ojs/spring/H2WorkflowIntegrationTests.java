package dev.ojs.spring;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.testsupport.TestDatabases;

class H2WorkflowIntegrationTests extends WorkflowIntegrationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.H2);
	}

}
