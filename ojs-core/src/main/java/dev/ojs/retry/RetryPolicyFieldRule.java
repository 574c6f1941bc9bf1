package dev.ojs.retry;

import org.jspecify.annotations.Nullable;

/** How a {@link RetryPolicy} made from two others combines their values of one field. */
interface RetryPolicyFieldRule {

	<T> @Nullable T apply(@Nullable T value, @Nullable T other);

}
