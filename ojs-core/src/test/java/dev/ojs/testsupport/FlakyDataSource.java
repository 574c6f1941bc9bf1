package dev.ojs.testsupport;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A data source that can be switched into an outage: while broken, every
 * {@link #getConnection()} fails as if the database were down.
 */
public final class FlakyDataSource extends DelegatingDataSource {

	private volatile boolean broken;

	private final AtomicInteger refused = new AtomicInteger();

	public FlakyDataSource(DataSource target) {
		super(target);
	}

	public void breakDown() {
		this.broken = true;
	}

	public void recover() {
		this.broken = false;
	}

	/** Connections refused so far. */
	public int refused() {
		return this.refused.get();
	}

	@Override
	public Connection getConnection() throws SQLException {
		check();
		return super.getConnection();
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		check();
		return super.getConnection(username, password);
	}

	private void check() throws SQLException {
		if (this.broken) {
			this.refused.incrementAndGet();
			throw new SQLTransientConnectionException("database is down (simulated)");
		}
	}

}
