/**
 * The JDBC job store. Every SQL statement lives in one dialect class per platform
 * (PostgreSQL, MariaDB/MySQL, H2); {@link dev.ojs.jdbc.JdbcJobStore} validates jobs and
 * runs the dialect's statements in their transactions.
 */
@NullMarked
package dev.ojs.jdbc;

import org.jspecify.annotations.NullMarked;
