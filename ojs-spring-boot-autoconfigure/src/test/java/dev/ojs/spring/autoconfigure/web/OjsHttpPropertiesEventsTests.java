package dev.ojs.spring.autoconfigure.web;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code ojs.http.events.*}: defaults, binding, and values below 1 refused with the property's name. */
class OjsHttpPropertiesEventsTests {

	private static OjsHttpProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("ojs.http",
				OjsHttpProperties.class);
	}

	@Test
	void defaults() {
		OjsHttpProperties.Events events = bind(Map.of()).getEvents();
		assertThat(events.getMaxSubscribers()).isEqualTo(100);
		assertThat(events.getBufferSize()).isEqualTo(1000);
		assertThat(events.getKeepAlive()).isEqualTo(Duration.ofSeconds(15));
	}

	@Test
	void binds() {
		OjsHttpProperties.Events events = bind(Map.of("ojs.http.events.max-subscribers", "5",
				"ojs.http.events.buffer-size", "50", "ojs.http.events.keep-alive", "2s")).getEvents();
		assertThat(events.getMaxSubscribers()).isEqualTo(5);
		assertThat(events.getBufferSize()).isEqualTo(50);
		assertThat(events.getKeepAlive()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void refusesValuesBelowOne() {
		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> bind(Map.of("ojs.http.events.max-subscribers", "0")))
			.havingRootCause()
			.withMessage("ojs.http.events.max-subscribers must be at least 1, not 0");
		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> bind(Map.of("ojs.http.events.buffer-size", "-1")))
			.havingRootCause()
			.withMessage("ojs.http.events.buffer-size must be at least 1, not -1");
		assertThatExceptionOfType(BindException.class)
			.isThrownBy(() -> bind(Map.of("ojs.http.events.keep-alive", "0s")))
			.havingRootCause()
			.withMessageContaining("ojs.http.events.keep-alive must be positive");
	}

}
