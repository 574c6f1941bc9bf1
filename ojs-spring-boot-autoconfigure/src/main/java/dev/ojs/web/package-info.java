/**
 * The web layer shared by the OJS Admin API, the dashboard and the OJS HTTP binding: the
 * binding's error body ({@link dev.ojs.web.ApiError}) and the exception that carries it.
 */
@NullMarked
package dev.ojs.web;

import org.jspecify.annotations.NullMarked;
