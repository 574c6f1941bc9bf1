package dev.ojs.bench.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * When to inject each fault: spread over the run by progress (share of jobs that succeeded),
 * from 5% to 70%, so work remains for the restarted and surviving workers. PostgreSQL
 * restarts are placed among the kills, not at the ends.
 */
public final class FaultPlan {

	static final double FIRST = 0.05;

	static final double LAST = 0.70;

	/** Kind of fault. */
	public enum Kind {

		/** SIGKILL a random ready worker process and start it again. */
		KILL_WORKER,
		/** Restart the PostgreSQL cluster. */
		RESTART_POSTGRES

	}

	/**
	 * One planned fault.
	 *
	 * @param kind the fault
	 * @param atProgress inject once this share of the jobs succeeded
	 */
	public record Fault(Kind kind, double atProgress) {

	}

	private FaultPlan() {
	}

	public static List<Fault> plan(int kills, int restarts) {
		int total = kills + restarts;
		List<Fault> faults = new ArrayList<>(total);
		List<Integer> restartSlots = new ArrayList<>();
		for (int j = 0; j < restarts; j++) {
			restartSlots.add((j + 1) * total / (restarts + 1));
		}
		for (int i = 0; i < total; i++) {
			double at = (total == 1) ? (FIRST + LAST) / 2 : FIRST + i * (LAST - FIRST) / (total - 1);
			faults.add(new Fault(restartSlots.contains(i) ? Kind.RESTART_POSTGRES : Kind.KILL_WORKER, at));
		}
		return List.copyOf(faults);
	}

}
