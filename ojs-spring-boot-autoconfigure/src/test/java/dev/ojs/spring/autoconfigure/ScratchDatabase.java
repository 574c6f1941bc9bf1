package dev.ojs.spring.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.ojs.testsupport.TestDatabases;

/**
 * A database of its own on the server of a {@link TestDatabases test database}, created empty
 * and dropped by {@link #close()}: what a new application starts on. On H2, a new in-memory
 * database.
 */
final class ScratchDatabase implements AutoCloseable {

	/** {@code jdbc:<driver>://<host>/}, the database name, the rest (parameters). */
	private static final Pattern URL = Pattern.compile("(jdbc:[a-z]+://[^/]+/)([^?;]*)(.*)");

	private final TestDatabases.Kind kind;

	private final TestDatabases.@Nullable Database server;

	private final String name;

	private final String url;

	private ScratchDatabase(TestDatabases.Kind kind, TestDatabases.@Nullable Database server, String name,
			String url) {
		this.kind = kind;
		this.server = server;
		this.name = name;
		this.url = url;
	}

	/** A new, empty database: in memory on H2, else on the server of the test database. */
	static ScratchDatabase create(TestDatabases.Kind kind) {
		String name = "ojs_scratch_" + Long.toString(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE), 36);
		if (kind == TestDatabases.Kind.H2) {
			return new ScratchDatabase(kind, null, name, "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
		}
		TestDatabases.Database server = TestDatabases.database(kind);
		Matcher url = URL.matcher(server.jdbcUrl());
		if (!url.matches()) {
			throw new IllegalStateException("Cannot name another database in " + server.jdbcUrl());
		}
		new JdbcTemplate(server.dataSource()).execute("CREATE DATABASE " + name
				+ ((kind == TestDatabases.Kind.MARIADB) ? " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin" : ""));
		return new ScratchDatabase(kind, server, name, url.group(1) + name + url.group(3));
	}

	TestDatabases.Kind kind() {
		return this.kind;
	}

	/** The settings of an application on this database, as command-line arguments. */
	List<String> settings() {
		List<String> settings = new ArrayList<>(List.of("--spring.datasource.url=" + this.url));
		if (this.server != null && this.server.username() != null) {
			settings.add("--spring.datasource.username=" + this.server.username());
		}
		if (this.server != null && this.server.password() != null) {
			settings.add("--spring.datasource.password=" + this.server.password());
		}
		return settings;
	}

	@Override
	public void close() {
		if (this.server != null) {
			new JdbcTemplate(this.server.dataSource()).execute("DROP DATABASE " + this.name
					+ ((this.kind == TestDatabases.Kind.POSTGRESQL) ? " WITH (FORCE)" : ""));
		}
	}

}
