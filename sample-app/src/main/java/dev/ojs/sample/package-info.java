/**
 * The OJS sample application: job handlers for each retry behaviour, the scenarios that
 * enqueue them and a small HTTP API.
 */
@NullMarked
package dev.ojs.sample;

import org.jspecify.annotations.NullMarked;
