/**
 * Auto-configuration of the OJS web layer: the OJS HTTP binding ({@code ojs.http.*}) and
 * its access control.
 */
@NullMarked
package dev.ojs.spring.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
