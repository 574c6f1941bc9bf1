package dev.ojs.spring.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.function.Supplier;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

import dev.ojs.spring.OjsJob;
import dev.ojs.worker.Attempt;
import dev.ojs.worker.JobHandler;

/**
 * Runs an attempt by invoking an {@link OjsJob @OjsJob} method on its bean: the bean as the
 * container exposes it, so proxies (transactions, security, ...) apply.
 */
final class MethodJobHandler implements JobHandler {

	private final Method method;

	private final MethodArgumentBinder binder;

	private final Supplier<Target> target;

	MethodJobHandler(Method method, MethodArgumentBinder binder, Supplier<Object> bean) {
		this.method = method;
		this.binder = binder;
		this.target = SingletonSupplier.of(() -> {
			Object instance = bean.get();
			Method invocable = AopUtils.selectInvocableMethod(method, instance.getClass());
			ReflectionUtils.makeAccessible(invocable);
			return new Target(instance, invocable);
		});
	}

	/**
	 * Resolves the bean and the method to call on it now.
	 * @throws IllegalStateException when the method is not invocable on the bean's proxy
	 */
	void resolveTarget() {
		this.target.get();
	}

	@Override
	public void handle(Attempt attempt) throws Exception {
		Object[] args = this.binder.bind(attempt.job().argsJson(), new AttemptJobContext(attempt));
		Target target = this.target.get();
		try {
			target.method().invoke(target.bean(), args);
		}
		catch (InvocationTargetException ex) {
			Throwable failure = ex.getTargetException();
			if (failure instanceof Exception exception) {
				throw exception;
			}
			if (failure instanceof Error error) {
				throw error;
			}
			throw new UndeclaredThrowableException(failure);
		}
	}

	@Override
	public String toString() {
		return "MethodJobHandler[" + this.method.toGenericString() + "]";
	}

	private record Target(Object bean, Method method) {
	}

}
