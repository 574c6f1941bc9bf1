/**
 * The OJS retry policy (spec §2–§11) in plain Java, with no Spring dependency: the
 * policy, its JSON form and validation, backoff and jitter, and the decision taken after a
 * failed attempt.
 */
@NullMarked
package dev.ojs.retry;

import org.jspecify.annotations.NullMarked;
