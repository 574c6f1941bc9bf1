/**
 * Actuator support for OJS: the {@code deadletters} and {@code ojs} endpoints, the
 * {@code ojs} health indicator and the Micrometer metrics.
 */
@NullMarked
package dev.ojs.spring.actuate;

import org.jspecify.annotations.NullMarked;
