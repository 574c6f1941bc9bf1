package dev.ojs.jdbc;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.JdbcTransactionObjectSupport;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.DelegatingTransactionDefinition;

/**
 * A store's transactions: a {@link DataSourceTransactionManager} that sets a transaction's
 * isolation only where the data source's connections come with another. Spring asks the
 * connection for its level at the start of every transaction that names one, and the JDBC
 * drivers ask the server (PostgreSQL's {@code SHOW TRANSACTION ISOLATION LEVEL}): a round trip
 * more for each of a worker's claims and outcome batches, which are READ COMMITTED, PostgreSQL's
 * and H2's own level. The connections' level is learned from the first transaction that names
 * one (a pool hands its connections out at its own level); on MariaDB and MySQL, REPEATABLE READ
 * by default, READ COMMITTED is still set for each transaction that asks for it.
 */
final class StoreTransactionManager extends DataSourceTransactionManager {

	/** The isolation level the data source's connections come with, once learned. */
	private volatile @Nullable Integer connectionIsolation;

	StoreTransactionManager(DataSource dataSource) {
		super(dataSource);
	}

	@Override
	protected void doBegin(Object transaction, TransactionDefinition definition) {
		int wanted = definition.getIsolationLevel();
		if (wanted == TransactionDefinition.ISOLATION_DEFAULT) {
			super.doBegin(transaction, definition);
			return;
		}
		Integer known = this.connectionIsolation;
		if (known != null && known == wanted) {
			super.doBegin(transaction, new DelegatingTransactionDefinition(definition) {
				@Override
				public int getIsolationLevel() {
					return TransactionDefinition.ISOLATION_DEFAULT;
				}
			});
			return;
		}
		super.doBegin(transaction, definition);
		if (known == null) {
			// set only where the connection had another level, which is then the data source's
			Integer previous = ((JdbcTransactionObjectSupport) transaction).getPreviousIsolationLevel();
			this.connectionIsolation = (previous != null) ? previous : wanted;
		}
	}

}
