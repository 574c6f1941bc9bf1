package dev.ojs.web.http;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.ojs.spring.IntegrationTestApplication;
import dev.ojs.testsupport.TestDatabases;

class PostgresAdminWorkflowsHttpTests extends AdminWorkflowsHttpTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		IntegrationTestApplication.configure(registry, TestDatabases.Kind.POSTGRESQL);
	}

}
