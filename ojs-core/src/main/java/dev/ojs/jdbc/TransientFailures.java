package dev.ojs.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Which failures of the JDBC store pass: connection and resource failures, timeouts,
 * deadlocks and serialization failures, as Spring translates them or as the driver reports
 * them (SQLState classes 08 connection, 40 transaction rollback, 53 insufficient resources,
 * 57 operator intervention). Anything else (data too long, constraint violation, bad SQL)
 * fails again for the same rows.
 */
final class TransientFailures {

	/** SQLState classes of errors that pass: connection, transaction rollback, resources, operator intervention. */
	private static final Set<String> TRANSIENT_SQL_STATES = Set.of("08", "40", "53", "57");

	private TransientFailures() {
	}

	/** Whether {@code failure} or one of its causes passes. */
	static boolean isTransient(Throwable failure) {
		for (Throwable ex = failure; ex != null; ex = (ex.getCause() != ex) ? ex.getCause() : null) {
			if (ex instanceof TransientDataAccessException || ex instanceof RecoverableDataAccessException
					|| ex instanceof DataAccessResourceFailureException || ex instanceof CannotCreateTransactionException
					|| ex instanceof SQLTransientException || ex instanceof SQLRecoverableException
					|| ex instanceof SQLNonTransientConnectionException) {
				return true;
			}
			String state = (ex instanceof SQLException sql) ? sql.getSQLState() : null;
			if (state != null && TRANSIENT_SQL_STATES.contains(state.substring(0, Math.min(2, state.length())))) {
				return true;
			}
		}
		return false;
	}

}
