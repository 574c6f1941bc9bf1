/**
 * The public events of OJS jobs and recurring jobs, published as Spring application events, and
 * the {@link dev.ojs.spring.event.OjsJobListener listener} of job outcomes.
 */
@NullMarked
package dev.ojs.spring.event;

import org.jspecify.annotations.NullMarked;
