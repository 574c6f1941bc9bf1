/**
 * Auto-configuration of the OJS web layer: the Admin API and the dashboard.
 */
@NullMarked
package dev.ojs.spring.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
