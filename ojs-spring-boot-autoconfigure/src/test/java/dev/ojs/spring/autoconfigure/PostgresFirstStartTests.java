package dev.ojs.spring.autoconfigure;

import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.testsupport.TestDatabases;

/**
 * {@link AbstractFirstStartTests} on a new PostgreSQL database, with Hikari's default pool of
 * 10 connections. A server with autovacuum off (the test servers) explains the one warning a
 * fresh application logs there.
 */
class PostgresFirstStartTests extends AbstractFirstStartTests {

	@Override
	protected TestDatabases.Kind kind() {
		return TestDatabases.Kind.POSTGRESQL;
	}

	@Override
	protected List<String> expectedWarnings() {
		String autovacuum = new JdbcTemplate(TestDatabases.database(TestDatabases.Kind.POSTGRESQL).dataSource())
			.queryForObject("SHOW autovacuum", String.class);
		return "off".equals(autovacuum) ? List.of("autovacuum") : List.of();
	}

}
