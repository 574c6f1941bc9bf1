/**
 * Spring Boot auto-configuration for OJS jobs.
 */
package dev.ojs.spring.autoconfigure;
