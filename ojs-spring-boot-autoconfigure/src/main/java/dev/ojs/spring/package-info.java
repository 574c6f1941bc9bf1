/**
 * The Spring API of OJS jobs: {@link dev.ojs.spring.OjsJob @OjsJob} handlers,
 * {@link dev.ojs.spring.OjsTemplate}, {@link dev.ojs.spring.OjsQueues} and the job events.
 */
@NullMarked
package dev.ojs.spring;

import org.jspecify.annotations.NullMarked;
