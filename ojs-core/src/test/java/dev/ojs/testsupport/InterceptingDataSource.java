package dev.ojs.testsupport;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A {@link DataSource} whose connections show every call to an {@link Interceptor} first,
 * which passes it on (possibly with other arguments), answers it itself, or throws: to see
 * the SQL a store sends, rewrite it, hold it at a gate, or fail it.
 */
public final class InterceptingDataSource extends DelegatingDataSource {

	private final Interceptor interceptor;

	public InterceptingDataSource(DataSource target, Interceptor interceptor) {
		super(target);
		this.interceptor = interceptor;
	}

	@Override
	public Connection getConnection() throws SQLException {
		Connection target = super.getConnection();
		return (Connection) Proxy.newProxyInstance(InterceptingDataSource.class.getClassLoader(),
				new Class<?>[] { Connection.class },
				(proxy, method, args) -> this.interceptor.intercept(new Call(target, method, args)));
	}

	/** Decides what becomes of a call on a connection. */
	@FunctionalInterface
	public interface Interceptor {

		/**
		 * @param call the call
		 * @return its result, usually {@link Call#proceed()}
		 * @throws Throwable what the call throws
		 */
		Object intercept(Call call) throws Throwable;

	}

	/**
	 * One call on a connection.
	 * @param target the real connection
	 * @param method the method called
	 * @param args its arguments ({@code null} for none)
	 */
	public record Call(Connection target, Method method, Object[] args) {

		/** The SQL of a {@code prepareStatement} call, otherwise {@code null}. */
		public String sql() {
			return (this.method.getName().equals("prepareStatement") && this.args != null && this.args.length > 0
					&& this.args[0] instanceof String sql) ? sql : null;
		}

		/** Whether this is {@code method(...)} with {@code count} arguments. */
		public boolean is(String method, int count) {
			return this.method.getName().equals(method) && ((this.args != null) ? this.args.length : 0) == count;
		}

		/** Makes the call on the real connection. */
		public Object proceed() throws Throwable {
			return proceed(this.args);
		}

		/** Makes the call on the real connection with other arguments. */
		public Object proceed(Object... args) throws Throwable {
			try {
				return this.method.invoke(this.target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		}

	}

}
