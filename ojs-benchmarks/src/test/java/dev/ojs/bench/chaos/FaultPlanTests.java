package dev.ojs.bench.chaos;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ojs.bench.chaos.FaultPlan.Fault;
import dev.ojs.bench.chaos.FaultPlan.Kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FaultPlanTests {

	@Test
	void fullConfigurationPutsTheRestartAmongTheKills() {
		List<Fault> plan = FaultPlan.plan(5, 1);
		assertThat(plan).extracting(Fault::kind)
			.containsExactly(Kind.KILL_WORKER, Kind.KILL_WORKER, Kind.KILL_WORKER, Kind.RESTART_POSTGRES,
					Kind.KILL_WORKER, Kind.KILL_WORKER);
		assertThat(plan.get(0).atProgress()).isCloseTo(0.05, within(1e-9));
		assertThat(plan.get(5).atProgress()).isCloseTo(0.70, within(1e-9));
		assertThat(plan).extracting(Fault::atProgress).isSorted();
	}

	@Test
	void shortConfiguration() {
		assertThat(FaultPlan.plan(2, 1)).extracting(Fault::kind)
			.containsExactly(Kind.KILL_WORKER, Kind.RESTART_POSTGRES, Kind.KILL_WORKER);
		assertThat(FaultPlan.plan(0, 1)).containsExactly(new Fault(Kind.RESTART_POSTGRES, 0.375));
		assertThat(FaultPlan.plan(2, 0)).extracting(Fault::kind).containsOnly(Kind.KILL_WORKER);
		assertThat(FaultPlan.plan(0, 0)).isEmpty();
	}

}
