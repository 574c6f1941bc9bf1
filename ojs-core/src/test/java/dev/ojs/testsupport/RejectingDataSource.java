package dev.ojs.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Array;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A data source whose statements fail like a value the database cannot store (SQLState
 * {@code 22001}, data too long) whenever a bound value contains a marker: a bound string, an
 * element of a bound array, or any row of a batch. Everything else passes through.
 */
public final class RejectingDataSource extends DelegatingDataSource {

	private final String marker;

	private final AtomicInteger rejected = new AtomicInteger();

	public RejectingDataSource(DataSource target, String marker) {
		super(target);
		this.marker = marker;
	}

	/** Statements rejected so far. */
	public int rejected() {
		return this.rejected.get();
	}

	@Override
	public Connection getConnection() throws SQLException {
		return connection(super.getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return connection(super.getConnection(username, password));
	}

	private Connection connection(Connection target) {
		Set<Array> marked = Collections.newSetFromMap(new IdentityHashMap<>());
		return proxy(Connection.class, target, (method, args) -> {
			Object result = invoke(method, target, args);
			if (method.getName().equals("createArrayOf") && contains(args[1])) {
				marked.add((Array) result);
			}
			if (result instanceof PreparedStatement statement) {
				return statement(statement, marked);
			}
			return result;
		});
	}

	private PreparedStatement statement(PreparedStatement target, Set<Array> marked) {
		boolean[] poisoned = new boolean[1];
		return proxy(PreparedStatement.class, target, (method, args) -> {
			String name = method.getName();
			if (name.startsWith("set") && args != null && args.length >= 2
					&& (contains(args[1]) || (args[1] instanceof Array array && marked.contains(array)))) {
				poisoned[0] = true;
			}
			if (poisoned[0] && name.equals("executeBatch")) {
				reject(true);
			}
			if (poisoned[0] && name.startsWith("execute")) {
				reject(false);
			}
			if (name.equals("clearBatch")) {
				poisoned[0] = false;
			}
			return invoke(method, target, args);
		});
	}

	private void reject(boolean batch) throws SQLException {
		this.rejected.incrementAndGet();
		SQLDataException tooLong = new SQLDataException("Data too long (simulated: value contains " + this.marker + ")",
				"22001");
		throw batch ? new BatchUpdateException(tooLong.getMessage(), "22001", 0, new int[0], tooLong) : tooLong;
	}

	private boolean contains(Object value) {
		if (value instanceof String text) {
			return text.contains(this.marker);
		}
		if (value instanceof Object[] values) {
			return Arrays.stream(values).anyMatch(this::contains);
		}
		return false;
	}

	@FunctionalInterface
	private interface Handler {

		Object handle(Method method, Object[] args) throws Throwable;

	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, Handler handler) {
		InvocationHandler invocation = (proxy, method, args) -> {
			if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
				return invoke(method, target, args);
			}
			return handler.handle(method, args);
		};
		return (T) Proxy.newProxyInstance(RejectingDataSource.class.getClassLoader(), new Class<?>[] { type },
				invocation);
	}

	private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
