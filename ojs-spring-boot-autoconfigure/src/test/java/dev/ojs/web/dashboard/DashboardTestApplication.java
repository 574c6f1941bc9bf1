package dev.ojs.web.dashboard;

import java.io.IOException;
import java.util.Map;

import dev.ojs.retry.ErrorCode;
import dev.ojs.spring.OjsJob;
import dev.ojs.spring.OjsJob.Exhaustion;
import dev.ojs.spring.OjsJob.Jitter;
import dev.ojs.spring.OjsJobException;
import dev.ojs.spring.OjsRecurring;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application the dashboard's browser tests start: a shop whose jobs complete, exhaust
 * their attempts or are dead-lettered at once, and one recurring job.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class DashboardTestApplication {

	/** Completes, in queue {@value #EMAILS}. */
	static final String SEND = "shop.email.send";

	/** Fails every attempt with an IOException; exhausts two attempts into the dead letter queue. */
	static final String SYNC = "shop.account.sync";

	/** Dead-lettered by its handler with {@value #DECLINED}, in queue {@value #PAYMENTS}. */
	static final String CHARGE = "shop.payment.charge";

	static final String EMAILS = "emails";

	static final String PAYMENTS = "payments";

	static final String DECLINED = "payments.card_declined";

	static final String REPORT = "shop.nightly-report";

	/** A workflow step: picks an order's items and returns what it picked. */
	static final String PICK = "shop.order.pick";

	/** A workflow step: ships an order and returns its tracking number. */
	static final String SHIP = "shop.order.ship";

	static final String FULFILMENT = "fulfilment";

	@Bean
	ShopJobs shopJobs() {
		return new ShopJobs();
	}

	static class ShopJobs {

		@OjsJob(type = SEND, queue = EMAILS)
		void send(String to) {
		}

		@OjsJob(type = SYNC, maxAttempts = 2, initialInterval = "10ms", jitter = Jitter.DISABLED,
				onExhaustion = Exhaustion.DEAD_LETTER)
		void sync(String account) throws IOException {
			throw new IOException("Partner API rejected the sync of " + account);
		}

		@OjsJob(type = CHARGE, queue = PAYMENTS)
		void charge(String customer) {
			throw new OjsJobException(DECLINED, ErrorCode.DEAD_LETTER, "Card of " + customer + " declined",
					Map.of("customer", customer));
		}

		@OjsJob(type = PICK, queue = FULFILMENT)
		Map<String, Object> pick(int order) {
			return Map.of("order", order, "items", 3);
		}

		@OjsJob(type = SHIP, queue = FULFILMENT)
		String ship(int order) {
			return "TRACK-" + order;
		}

		@OjsRecurring(name = REPORT, cron = "0 2 * * *", description = "Sales of the day")
		@OjsJob(type = "shop.report")
		void report() {
		}

	}

}
