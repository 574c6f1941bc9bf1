/**
 * Auto-configuration of the OJS web layer: the Admin API and dashboard
 * ({@code ojs.dashboard.*}), the OJS HTTP binding ({@code ojs.http.*}), and their access control.
 */
@NullMarked
package dev.ojs.spring.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
