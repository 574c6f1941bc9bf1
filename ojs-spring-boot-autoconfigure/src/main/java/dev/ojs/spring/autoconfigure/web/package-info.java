/**
 * Auto-configuration of the OJS web layer: the OJS HTTP binding.
 */
@NullMarked
package dev.ojs.spring.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
