package dev.ojs.spring.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import dev.ojs.spring.event.JobCompletedEvent;
import dev.ojs.spring.event.JobDeadLetteredEvent;
import dev.ojs.spring.event.JobDiscardedEvent;
import dev.ojs.spring.event.JobRetryingEvent;
import dev.ojs.spring.event.OjsJobFailureEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ApplicationEventJobListener}: an event type is published only when
 * the application listens to it.
 */
class ApplicationEventJobListenerTests {

	@Test
	void aSpringApplicationWithoutJobListenersPublishesNoEventType() {
		try (ConfigurableApplicationContext context = run(NoListeners.class)) {
			ApplicationEventJobListener listener = new ApplicationEventJobListener(context);
			assertThat(listener.supportsEventType(JobCompletedEvent.class)).isFalse();
			assertThat(listener.supportsEventType(JobRetryingEvent.class)).isFalse();
			assertThat(listener.supportsEventType(JobDiscardedEvent.class)).isFalse();
			assertThat(listener.supportsEventType(JobDeadLetteredEvent.class)).isFalse();
		}
	}

	@Test
	void eventListenerMethodsSelectTheirTypesAndSupertypes() {
		try (ConfigurableApplicationContext context = run(FailureEventListener.class)) {
			ApplicationEventJobListener listener = new ApplicationEventJobListener(context);
			assertThat(listener.supportsEventType(JobCompletedEvent.class)).isFalse();
			assertThat(listener.supportsEventType(JobRetryingEvent.class)).isTrue();
			assertThat(listener.supportsEventType(JobDiscardedEvent.class)).isTrue();
			assertThat(listener.supportsEventType(JobDeadLetteredEvent.class)).isTrue();
		}
	}

	@Test
	void applicationListenerBeansCount() {
		try (ConfigurableApplicationContext context = run(CompletedListenerBean.class)) {
			ApplicationEventJobListener listener = new ApplicationEventJobListener(context);
			assertThat(listener.supportsEventType(JobCompletedEvent.class)).isTrue();
			assertThat(listener.supportsEventType(JobRetryingEvent.class)).isFalse();
		}
	}

	@Test
	void listenersOfTheParentContextCount() {
		try (ConfigurableApplicationContext parent = run(FailureEventListener.class);
				ConfigurableApplicationContext child = new SpringApplication(NoListeners.class) {
					{
						setWebApplicationType(WebApplicationType.NONE);
					}
				}.run()) {
			child.setParent(parent);
			assertThat(new ApplicationEventJobListener(child).supportsEventType(JobDiscardedEvent.class))
				.isTrue();
		}
	}

	private static ConfigurableApplicationContext run(Class<?> configuration) {
		SpringApplication application = new SpringApplication(configuration);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application.run();
	}

	@Configuration(proxyBeanMethods = false)
	static class NoListeners {

	}

	@Configuration(proxyBeanMethods = false)
	static class FailureEventListener {

		@EventListener
		void on(OjsJobFailureEvent event) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CompletedListenerBean {

		@Bean
		CompletedListener completedListener() {
			return new CompletedListener();
		}

	}

	static class CompletedListener implements ApplicationListener<JobCompletedEvent> {

		@Override
		public void onApplicationEvent(JobCompletedEvent event) {
		}

	}

}
