package dev.ojs.jdbc;

import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.ojs.jdbc.PostgresStatements.customPlans;
import static dev.ojs.jdbc.PostgresStatements.setTexts;

/**
 * The writes of an advance on PostgreSQL, each one {@code UPDATE} joined to
 * {@code unnest(...)}: of the workflows' ids and counters, and of the activations' workflow,
 * role, step and parent results, {@code RETURNING} each activated job's id, queue and workflow.
 * <p>
 * Plan of the activations: each activation finds its jobs through {@code <prefix>jobs_workflow_idx} and each job
 * is updated through the primary key, O(activations) whatever the number of pending jobs. The
 * lookup is a {@code LATERAL} subquery kept apart by {@code OFFSET 0} and repeats the index's
 * predicate ({@code workflow_id IS NOT NULL}), which a join clause alone does not prove; the
 * outer state check is written {@code IS TRUE} so that it offers no index of its own. Joined
 * plainly, the planner hashes every pending job of the table instead (10 ms rather than 3.7 ms
 * for 180 activations among 18,000 pending jobs).
 */
final class PostgresAdvanceSql extends AdvanceSql {

	private final String activateSql;

	private final String countSql;

	PostgresAdvanceSql(SqlSupport shared) {
		super(shared);
		this.activateSql = "UPDATE " + this.table + " j SET state = 'available', scheduled_at = ?,"
				+ " parent_results = a.parent_results FROM unnest(?::uuid[], ?::text[], ?::int[], ?::text[])"
				+ " AS a(workflow_id, workflow_role, workflow_step, parent_results), LATERAL (SELECT w.id FROM " + this.table
				+ " w WHERE w.workflow_id IS NOT NULL AND w.workflow_id = a.workflow_id AND w.workflow_step = a.workflow_step"
				+ " AND w.workflow_role = a.workflow_role AND w.state = 'pending' OFFSET 0) AS p"
				+ " WHERE j.id = p.id AND (j.state = 'pending') IS TRUE RETURNING j.id, j.queue, j.workflow_id";
		this.countSql = "UPDATE " + this.workflows + " w SET completed = c.completed, failed = c.failed"
				+ " FROM unnest(?::uuid[], ?::int[], ?::int[]) AS c(id, completed, failed) WHERE w.id = c.id";
	}

	@Override
	void count(List<Counters> counters) {
		for (List<Counters> chunk : chunks(counters, CHUNK)) {
			this.jdbc.update((con) -> {
				PreparedStatement ps = customPlans(con.prepareStatement(this.countSql));
				setTexts(ps, 1, chunk, Counters::workflowId);
				ps.setArray(2, con.createArrayOf("int4", chunk.stream().map(Counters::completed).toArray()));
				ps.setArray(3, con.createArrayOf("int4", chunk.stream().map(Counters::failed).toArray()));
				return ps;
			});
		}
	}

	@Override
	List<Activated> activate(List<Activation> activations, Instant now) {
		List<Activated> activated = new ArrayList<>();
		for (List<Activation> chunk : chunks(activations, CHUNK)) {
			activated.addAll(this.jdbc.query((con) -> {
				PreparedStatement ps = customPlans(con.prepareStatement(this.activateSql));
				setInstant(ps, 1, now);
				setTexts(ps, 2, chunk, Activation::workflowId);
				setTexts(ps, 3, chunk, (activation) -> activation.role().value());
				ps.setArray(4, con.createArrayOf("int4", chunk.stream().map(Activation::step).toArray()));
				setTexts(ps, 5, chunk, Activation::parentResults);
				return ps;
			}, AdvanceSql::activated));
		}
		return activated;
	}

}
