package dev.ojs.web;

import java.util.function.Supplier;

import dev.ojs.spring.OjsValidationException;

/**
 * Calls a service with a value taken from the request path: a value the service refuses is
 * answered naming the path variable, as the request spells it ({@code name} of
 * {@code /queues/{name}/pause}), with the service's message.
 */
public final class PathVariables {

	private PathVariables() {
	}

	/**
	 * The service call's result.
	 * @param variable the path variable that gave the call its one checked value
	 * @throws OjsValidationException naming {@code variable} when the service refuses it
	 */
	public static <T> T named(String variable, Supplier<T> call) {
		try {
			return call.get();
		}
		catch (OjsValidationException ex) {
			throw ex.withField(variable);
		}
	}

}
