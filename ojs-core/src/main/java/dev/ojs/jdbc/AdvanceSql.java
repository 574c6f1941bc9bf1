package dev.ojs.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import dev.ojs.workflow.Workflow;
import dev.ojs.workflow.WorkflowRole;

/**
 * The writes of a workflow's advance ({@link WorkflowSql#advance}): the workflows' counters and
 * ends, and the activations of jobs held in {@code pending} (a chain's next step, a batch's
 * callbacks). Those of jobs that ended together are written at once, so a workflow step costs
 * its completion no statement of its own. Here for every platform: a batch of updates, and one
 * read of the activated jobs' queues; {@link PostgresAdvanceSql} writes each in one statement.
 */
class AdvanceSql extends SqlSupport {

	/** The pending jobs of one workflow's role and step, made available with these parent results. */
	record Activation(String workflowId, WorkflowRole role, int step, String parentResults) {
	}

	/** A job an activation made available: its id and its workflow's, lower case, and its queue. */
	record Activated(String id, String queue, String workflowId) {
	}

	/** A workflow's counters of steps ended. */
	record Counters(String workflowId, int completed, int failed) {
	}

	/**
	 * What an advance writes once it has gone through its workflows: their counters, the next
	 * steps of chains, and the workflows that ended (as they ended).
	 */
	record Pending(List<Counters> counters, List<Activation> nextSteps, List<Workflow> ended) {

		Pending() {
			this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
		}

		/** The counters of the workflows that did not end: an end writes its own. */
		List<Counters> countersOfRunning() {
			Set<String> ended = this.ended.stream().map(Workflow::id).collect(Collectors.toSet());
			return this.counters.stream().filter((counted) -> !ended.contains(counted.workflowId())).toList();
		}

	}

	final String workflows;

	AdvanceSql(SqlSupport shared) {
		super(shared);
		this.workflows = shared.settings.workflowsTableName();
	}

	/**
	 * Makes the pending jobs of these activations available at {@code now}, in the caller's
	 * transaction; each is locked and read first, so what is returned is what was written, even
	 * where a cancel of its workflow (which holds no lock of the caller's) ran at the same time.
	 * @return each job made available
	 */
	List<Activated> activate(List<Activation> activations, Instant now) {
		List<Activated> activated = new ArrayList<>();
		for (List<Activation> chunk : chunks(activations, CHUNK)) {
			activated.addAll(pending(chunk));
		}
		if (activated.isEmpty()) {
			return activated;
		}
		this.jdbc.batchUpdate("UPDATE " + this.table + " SET state = 'available', scheduled_at = ?, parent_results = ?"
				+ " WHERE workflow_id = " + idParam() + " AND workflow_role = ? AND workflow_step = ? AND state = 'pending'",
				activations, CHUNK, (ps, activation) -> {
					setInstant(ps, 1, now);
					ps.setString(2, activation.parentResults());
					ps.setString(3, activation.workflowId());
					ps.setString(4, activation.role().value());
					ps.setInt(5, activation.step());
				});
		return activated;
	}

	/** Writes these workflows' counters, in the caller's transaction (which holds their rows locked). */
	void count(List<Counters> counters) {
		this.jdbc.batchUpdate("UPDATE " + this.workflows + " SET completed = ?, failed = ? WHERE id = " + idParam(),
				counters, CHUNK, (ps, counted) -> {
					ps.setInt(1, counted.completed());
					ps.setInt(2, counted.failed());
					ps.setString(3, counted.workflowId());
				});
	}

	/** Ends these workflows as they ended (state, counters, time), in the caller's transaction (which holds their rows locked). */
	void end(List<Workflow> ended) {
		this.jdbc.batchUpdate("UPDATE " + this.workflows + " SET state = ?, finished_at = ?, completed = ?, failed = ?"
				+ " WHERE id = " + idParam(), ended, CHUNK, (ps, workflow) -> {
					ps.setString(1, workflow.state().value());
					setInstant(ps, 2, workflow.finishedAt());
					ps.setInt(3, workflow.completed());
					ps.setInt(4, workflow.failed());
					ps.setString(5, workflow.id());
				});
	}

	/** The pending jobs of these activations, locked. */
	private List<Activated> pending(List<Activation> activations) {
		String match = "(workflow_id = " + idParam() + " AND workflow_role = ? AND workflow_step = ?)";
		List<String> matches = new ArrayList<>(activations.size());
		List<Object> values = new ArrayList<>(activations.size() * 3);
		for (Activation activation : activations) {
			matches.add(match);
			values.add(activation.workflowId());
			values.add(activation.role().value());
			values.add(activation.step());
		}
		return this.jdbc.query((con) -> {
			var ps = con.prepareStatement("SELECT id, queue, workflow_id FROM " + this.table
					+ " WHERE state = 'pending' AND (" + String.join(" OR ", matches) + ") FOR UPDATE");
			bindValues(ps, 1, values);
			return ps;
		}, AdvanceSql::activated);
	}

	static Activated activated(ResultSet rs, int rowNum) throws SQLException {
		return new Activated(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2),
				rs.getString(3).toLowerCase(Locale.ROOT));
	}

}
