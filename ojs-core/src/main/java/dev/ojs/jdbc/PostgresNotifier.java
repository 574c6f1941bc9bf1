package dev.ojs.jdbc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.dao.DataAccessException;

/**
 * Sends the {@code NOTIFY} that tells other processes' workers of claimable jobs once the
 * transaction that made them claimable has committed, from a thread of its own. A transaction
 * that notifies holds PostgreSQL's notify lock from its commit until its commit record is
 * flushed, so inserts and completions that notified in their own transactions committed one
 * after the other, each waiting for its own flush; a {@code NOTIFY} on its own writes no WAL
 * and holds the lock for a moment. The queues owed while a send runs go out together in the
 * next one. The thread ends when nothing is owed for a second, and is started again when
 * something is.
 */
final class PostgresNotifier {

	// logged as the store
	private static final Log logger = LogFactory.getLog(JdbcJobStore.class);

	private final Set<String> owed = ConcurrentHashMap.newKeySet();

	/** Whether a send is under way or queued: at most one at a time. */
	private final AtomicBoolean sending = new AtomicBoolean();

	private final Consumer<Collection<String>> send;

	private final Executor executor;

	PostgresNotifier(Consumer<Collection<String>> send) {
		this.send = send;
		this.executor = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (task) -> {
			Thread thread = new Thread(task, "ojs-notify");
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Tells the other processes' workers of these queues once the caller's transaction commits (now without one). */
	void owe(Collection<String> queues) {
		if (!queues.isEmpty()) {
			AfterCommit.run(() -> {
				this.owed.addAll(queues);
				if (this.sending.compareAndSet(false, true)) {
					this.executor.execute(this::sendOwed);
				}
			});
		}
	}

	private void sendOwed() {
		while (true) {
			List<String> queues = takeOwed();
			if (queues.isEmpty()) {
				this.sending.set(false);
				// owed after the take and before the flag was cleared: their owers saw a send under way
				if (this.owed.isEmpty() || !this.sending.compareAndSet(false, true)) {
					return;
				}
				continue;
			}
			try {
				this.send.accept(queues);
			}
			catch (DataAccessException ex) {
				// the jobs are committed: other processes find them at their next poll
				logger.debug("OJS could not notify other processes of jobs in " + queues, ex);
			}
			catch (RuntimeException ex) {
				// the next sends go on: a loop that ended here would leave every later owe unsent
				logger.warn("OJS could not notify other processes of jobs in " + queues, ex);
			}
		}
	}

	private List<String> takeOwed() {
		List<String> queues = new ArrayList<>();
		for (Iterator<String> it = this.owed.iterator(); it.hasNext();) {
			queues.add(it.next());
			it.remove();
		}
		return queues;
	}

}
