package dev.ojs.spring.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.function.Supplier;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

import dev.ojs.spring.JobSizeLimits;
import dev.ojs.spring.OjsJob;
import dev.ojs.worker.Attempt;
import dev.ojs.worker.JobHandler;

/**
 * Runs an attempt by invoking an {@link OjsJob @OjsJob} method on its bean: the bean as the
 * container exposes it, so proxies (transactions, security, ...) apply. A method that
 * returns a value gives the job its result (spec README decision 28), written as JSON by the
 * application's mapper and stored with the completion; one past the result size limit fails
 * the attempt.
 */
final class MethodJobHandler implements JobHandler {

	private final Method method;

	private final MethodArgumentBinder binder;

	private final Supplier<Target> target;

	private final boolean returnsResult;

	private final JsonMapper jsonMapper;

	private final Supplier<JobSizeLimits> sizeLimits;

	MethodJobHandler(Method method, MethodArgumentBinder binder, Supplier<Object> bean, JsonMapper jsonMapper,
			Supplier<JobSizeLimits> sizeLimits) {
		this.method = method;
		this.binder = binder;
		this.returnsResult = method.getReturnType() != void.class && method.getReturnType() != Void.class;
		this.jsonMapper = jsonMapper;
		this.sizeLimits = sizeLimits;
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
		Object[] args = this.binder.bind(attempt.job().argsJson(), new AttemptJobContext(attempt, this.jsonMapper));
		Target target = this.target.get();
		Object result;
		try {
			result = target.method().invoke(target.bean(), args);
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
		if (this.returnsResult && result != null) {
			String json = this.jsonMapper.writeValueAsString(result);
			this.sizeLimits.get().checkResultJson(json);
			attempt.setResultJson(json);
		}
	}

	@Override
	public String toString() {
		return "MethodJobHandler[" + this.method.toGenericString() + "]";
	}

	private record Target(Object bean, Method method) {
	}

}
