package dev.ojs.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.ojs.testsupport.InterceptingDataSource;
import dev.ojs.testsupport.TestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store's transactions ask the connection for its isolation level once, not at every
 * transaction (a round trip each on PostgreSQL), and still run at the level they name: set
 * where the data source's connections come with another (MariaDB's REPEATABLE READ), and the
 * connection handed back at its own level.
 */
class StoreTransactionManagerTests {

	@ParameterizedTest
	@EnumSource(TestDatabases.Kind.class)
	void readCommittedTransactionsAskForTheLevelOnce(TestDatabases.Kind kind) {
		AtomicInteger asked = new AtomicInteger();
		AtomicInteger set = new AtomicInteger();
		// the test's own look at the level inside a transaction is not counted
		AtomicBoolean looking = new AtomicBoolean();
		DataSource dataSource = new InterceptingDataSource(TestDatabases.database(kind).dataSource(), (call) -> {
			if (call.is("getTransactionIsolation", 0) && !looking.get()) {
				asked.incrementAndGet();
			}
			else if (call.is("setTransactionIsolation", 1)) {
				set.incrementAndGet();
			}
			return call.proceed();
		});
		TransactionTemplate readCommitted = new TransactionTemplate(new StoreTransactionManager(dataSource));
		readCommitted.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		List<Integer> levels = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			levels.add(readCommitted.execute((status) -> {
				looking.set(true);
				try {
					return DataSourceUtils.getConnection(dataSource).getTransactionIsolation();
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
				finally {
					looking.set(false);
				}
			}));
		}
		assertThat(levels).containsOnly(Connection.TRANSACTION_READ_COMMITTED);
		if (kind == TestDatabases.Kind.MARIADB) {
			// REPEATABLE READ by default: set for each transaction, and set back after it
			assertThat(set).hasValue(6);
		}
		else {
			assertThat(asked).as("asked by the first transaction only").hasValue(1);
			assertThat(set).hasValue(0);
		}
		try (Connection connection = dataSource.getConnection()) {
			assertThat(connection.getTransactionIsolation()).as("handed back at its own level")
				.isEqualTo(kind == TestDatabases.Kind.MARIADB ? Connection.TRANSACTION_REPEATABLE_READ
						: Connection.TRANSACTION_READ_COMMITTED);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
