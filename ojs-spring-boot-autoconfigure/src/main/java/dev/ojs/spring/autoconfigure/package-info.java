/**
 * Spring Boot auto-configuration for OJS jobs.
 */
@NullMarked
package dev.ojs.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
