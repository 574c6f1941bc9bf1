package dev.ojs.worker;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.ojs.job.Job;
import dev.ojs.retry.ErrorCode;
import dev.ojs.retry.JobError;

/**
 * Logs each stored failed attempt under this class's name, so that an application sets how
 * much it sees with one logger level: a dead letter at WARN, a job discarded after a
 * failed attempt at INFO, an attempt that will be retried at DEBUG. Each line names the
 * job's type, id, queue and attempt and the error.
 */
final class FailedAttempts {

	private static final Log logger = LogFactory.getLog(FailedAttempts.class);

	private FailedAttempts() {
	}

	static void log(FailurePlanner.Plan plan) {
		if (plan.delay() != null) {
			if (logger.isDebugEnabled()) {
				logger.debug(describe(plan.job()) + " failed, retrying in " + plan.delay() + " at "
						+ plan.attemptFailure().nextRetryAt() + ": " + describe(plan.error()));
			}
		}
		else if (plan.attemptFailure().deadLetter()) {
			if (logger.isWarnEnabled()) {
				logger.warn(describe(plan.job()) + " failed and was dead-lettered: " + describe(plan.error()));
			}
		}
		else if (logger.isInfoEnabled()) {
			logger.info(describe(plan.job()) + " failed and was discarded: " + describe(plan.error()));
		}
	}

	private static String describe(Job job) {
		return "OJS job " + job.type() + " " + job.id() + " (queue " + job.queue() + ") attempt " + job.attempt();
	}

	private static String describe(JobError error) {
		return error.type() + ((error.code() != ErrorCode.RETRY) ? " (" + error.code() + ")" : "") + ": "
				+ error.message();
	}

}
