/**
 * Auto-configuration for the OJS actuator endpoints, health indicator and metrics.
 */
@NullMarked
package dev.ojs.spring.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
