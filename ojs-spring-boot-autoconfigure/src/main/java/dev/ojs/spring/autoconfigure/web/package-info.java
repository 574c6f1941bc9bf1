/**
 * Auto-configuration of the OJS Admin API and dashboard ({@code ojs.dashboard.*}) and of
 * their access control.
 */
@NullMarked
package dev.ojs.spring.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
