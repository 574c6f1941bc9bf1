package dev.ojs.spring;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.testsupport.TestDatabases;

class MariaDbWorkflowIntegrationTests extends WorkflowIntegrationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.MARIADB);
	}

}
