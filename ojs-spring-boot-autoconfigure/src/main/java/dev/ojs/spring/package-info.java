/**
 * The Spring API of OJS jobs: {@link dev.ojs.spring.OjsJob @OjsJob} handlers,
 * {@link dev.ojs.spring.OjsTemplate}, {@link dev.ojs.spring.OjsQueues}, the
 * {@link dev.ojs.spring.OjsWorker}, the job events and their
 * {@link dev.ojs.spring.event.OjsJobListener listeners}.
 */
@NullMarked
package dev.ojs.spring;

import org.jspecify.annotations.NullMarked;
