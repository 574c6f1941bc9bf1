package dev.ojs.workflow;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one stored workflow.
 *
 * @param id bare lowercase UUIDv7 (spec README decision 26)
 * @param type chain, group or batch
 * @param name the name it was given, or {@code null}
 * @param state running, then completed, failed or cancelled
 * @param total its steps (a group's or batch's jobs), callbacks not counted
 * @param completed the steps that succeeded
 * @param failed the steps that ended without success
 * @param metadataJson JSON object of metadata
 * @param createdAt when it was created
 * @param finishedAt when it reached its terminal state, or {@code null}
 */
public record Workflow(String id, WorkflowType type, @Nullable String name, WorkflowState state, int total,
		int completed, int failed, String metadataJson, Instant createdAt, @Nullable Instant finishedAt) {

}
