/**
 * The Spring API of OJS jobs: {@link dev.ojs.spring.OjsJob @OjsJob} handlers,
 * {@link dev.ojs.spring.OjsTemplate} and the job events.
 */
package dev.ojs.spring;
