/**
 * The JDBC job store. Every SQL statement lives in the classes a
 * {@code JdbcDialect} hands out, one per concern ({@code *Sql}), with a subclass
 * where a platform (PostgreSQL, MariaDB/MySQL, H2) works its own way; they run their
 * statements in their own transactions. {@link dev.ojs.jdbc.JdbcJobStore},
 * {@link dev.ojs.jdbc.JdbcAdminStore} and {@link dev.ojs.jdbc.JdbcRecurringJobStore} validate what
 * they are given and call them.
 */
@NullMarked
package dev.ojs.jdbc;

import org.jspecify.annotations.NullMarked;
