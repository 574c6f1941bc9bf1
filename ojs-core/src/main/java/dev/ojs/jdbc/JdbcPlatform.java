package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * The databases the JDBC store supports, each with its schema script
 * ({@code dev/ojs/jdbc/schema-<id>.sql}).
 */
public enum JdbcPlatform {

	/** PostgreSQL 13+. */
	POSTGRESQL("postgresql"),
	/** MariaDB 10.6+. */
	MARIADB("mariadb"),
	/** MySQL 8.0+ (runs the MariaDB SQL). */
	MYSQL("mysql"),
	/** H2 2.2.220+. */
	H2("h2");

	private final String id;

	JdbcPlatform(String id) {
		this.id = id;
	}

	/** The id used in the schema script name, e.g. {@code "postgresql"}. */
	public String id() {
		return this.id;
	}

	/** The platform of a JDBC {@link DatabaseMetaData#getDatabaseProductName() product name}. */
	public static JdbcPlatform fromProductName(String productName) {
		String name = productName.toLowerCase(Locale.ROOT);
		if (name.contains("postgres")) {
			return POSTGRESQL;
		}
		if (name.contains("mariadb")) {
			return MARIADB;
		}
		if (name.contains("mysql")) {
			return MYSQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		throw new IllegalArgumentException("Unsupported database for OJS jobs: " + productName);
	}

	/**
	 * The platform of a data source, from its connection metadata. MariaDB servers reached
	 * through the MySQL driver report "MySQL" with a version containing "MariaDB".
	 */
	public static JdbcPlatform detect(DataSource dataSource) {
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			DatabaseMetaData metaData = connection.getMetaData();
			JdbcPlatform platform = fromProductName(metaData.getDatabaseProductName());
			if (platform == MYSQL
					&& metaData.getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb")) {
				return MARIADB;
			}
			return platform;
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot read the database metadata", ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
	}

}
