package dev.ojs.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * A job's JSON arguments do not match its handler method's parameters (any more). Reported
 * as error type {@value #ERROR_TYPE} with code {@code FAIL}: retrying cannot help.
 */
class ArgumentBindingException extends RuntimeException {

	/** The OJS error type of argument binding failures. */
	static final String ERROR_TYPE = "ojs.args_invalid";

	private final int parameterIndex;

	ArgumentBindingException(String message, int parameterIndex, @Nullable Throwable cause) {
		super(message, cause);
		this.parameterIndex = parameterIndex;
	}

	/** The 0-based index of the parameter that could not be bound, or -1 for the whole list. */
	int getParameterIndex() {
		return this.parameterIndex;
	}

}
