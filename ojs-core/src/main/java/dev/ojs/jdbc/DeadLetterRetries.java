package dev.ojs.jdbc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.springframework.dao.DuplicateKeyException;

import dev.ojs.job.DeadLetterFilter;
import dev.ojs.job.Job;
import dev.ojs.job.JobState;

/**
 * Retries of dead letters: back to {@code available} with their attempts reset, unless the
 * letter's unique key is now held by another live job of its type.
 */
final class DeadLetterRetries {

	private DeadLetterRetries() {
	}

	/** Retries {@code job} if it is a dead letter whose unique key is free; whether it was. */
	static boolean retry(JdbcDialect dialect, Job job, Instant now) {
		if (job.state() != JobState.DISCARDED || !job.deadLetter()) {
			return false;
		}
		String key = job.uniqueKey();
		if (key != null && dialect.inserts().findLiveIdByUniqueKey(job.type(), key) != null) {
			return false;
		}
		try {
			return dialect.deadLetters().revive(List.of(job.id()), now) == 1;
		}
		catch (DuplicateKeyException ex) {
			return false;
		}
	}

	/**
	 * Retries the dead letters matching {@code filter}: those without a unique key in chunks,
	 * the others one at a time through {@code retryOne}; how many were retried.
	 */
	static int retryAll(JdbcDialect dialect, DeadLetterFilter filter, Instant now, Predicate<String> retryOne) {
		List<String> plain = new ArrayList<>();
		List<String> unique = new ArrayList<>();
		for (DeadLetterSql.Key letter : dialect.deadLetters().keys(filter)) {
			((letter.uniqueKey() != null) ? unique : plain).add(letter.id());
		}
		int revived = 0;
		for (List<String> chunk : SqlSupport.chunks(plain, SqlSupport.CHUNK)) {
			revived += dialect.deadLetters().revive(chunk, now);
		}
		// one at a time: two dead letters may share a key, and only one may become live
		for (String id : unique) {
			revived += retryOne.test(id) ? 1 : 0;
		}
		return revived;
	}

}
