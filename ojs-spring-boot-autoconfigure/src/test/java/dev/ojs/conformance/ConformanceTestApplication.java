package dev.ojs.conformance;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.ojs.spring.OjsJob;
import dev.ojs.spring.TestDatabaseConfiguration;

/**
 * The application the conformance cases run against: the auto-configuration with the HTTP
 * binding on, on one of the test databases, and no handler for any type the cases use (their
 * jobs wait for the cases' own fetches). One handler on a queue no case uses sets the pace of
 * the rescuer: its 2 s visibility timeout makes the node look for expired reservations every
 * 0.5 s, so an external worker's short reservation is reaped within the second the
 * visibility cases allow, without shortening the reservation of a fetch that names none.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(TestDatabaseConfiguration.class)
class ConformanceTestApplication {

	@Bean
	RescuerPace rescuerPace() {
		return new RescuerPace();
	}

	/** Never given a job: only its visibility timeout matters. */
	static class RescuerPace {

		@OjsJob(type = "conformance.rescuer_pace", queue = "conformance-runner", visibilityTimeout = "2s")
		void run() {
		}

	}

}
