package dev.ojs.worker;

/**
 * Worker threads catch everything to keep running, except a {@link VirtualMachineError}
 * (out of memory, stack overflow, internal error): the JVM is failing.
 */
final class Throwables {

	private Throwables() {
	}

	static void rethrowIfFatal(Throwable ex) {
		if (ex instanceof VirtualMachineError error) {
			throw error;
		}
	}

}
