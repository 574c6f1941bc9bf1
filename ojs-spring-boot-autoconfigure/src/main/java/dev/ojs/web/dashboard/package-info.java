/**
 * The OJS dashboard: a single page (plain HTML, CSS and JavaScript from the classpath) served
 * at {@code ojs.dashboard.path} that reads and drives the Admin API.
 */
@NullMarked
package dev.ojs.web.dashboard;

import org.jspecify.annotations.NullMarked;
