/**
 * Workflows (ojs-workflows.md): chains, groups and batches of jobs, stored beside the jobs
 * and advanced by every end of one of their jobs, behind the {@link dev.ojs.workflow.WorkflowStore} port.
 */
@NullMarked
package dev.ojs.workflow;

import org.jspecify.annotations.NullMarked;
