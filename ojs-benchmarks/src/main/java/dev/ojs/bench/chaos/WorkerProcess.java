package dev.ojs.bench.chaos;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * One worker JVM: started with a command, its output (stdout and stderr) appended to a log
 * file, ready once it prints a marker line. It can be killed with SIGKILL
 * ({@link Process#destroyForcibly()} on Linux) and started again; every start is a new
 * process with a new pid.
 */
public final class WorkerProcess {

	private final String name;

	private final List<String> command;

	private final Path log;

	private final String readyMarker;

	private final Deque<String> tail = new ArrayDeque<>();

	private @Nullable Process process;

	private volatile CountDownLatch ready = new CountDownLatch(1);

	private Thread pump;

	private int starts;

	/**
	 * @param name a short name for reports, e.g. {@code worker-1}
	 * @param command the command to run
	 * @param log the file the process's output is appended to
	 * @param readyMarker a line containing this text means the process is ready
	 */
	public WorkerProcess(String name, List<String> command, Path log, String readyMarker) {
		this.name = name;
		this.command = List.copyOf(command);
		this.log = log;
		this.readyMarker = readyMarker;
	}

	public String name() {
		return this.name;
	}

	public Path log() {
		return this.log;
	}

	/** How often this worker was started. */
	public synchronized int starts() {
		return this.starts;
	}

	/** Starts a new process; the previous one must have exited. */
	public synchronized void start() {
		if (this.process != null && this.process.isAlive()) {
			throw new IllegalStateException(this.name + " is still running as pid " + this.process.pid());
		}
		try {
			Files.createDirectories(this.log.toAbsolutePath().getParent());
			ProcessBuilder builder = new ProcessBuilder(this.command).redirectErrorStream(true);
			this.ready = new CountDownLatch(1);
			this.process = builder.start();
			this.starts++;
			Process started = this.process;
			CountDownLatch startedReady = this.ready;
			this.pump = new Thread(() -> pump(started, startedReady), this.name + "-output");
			this.pump.setDaemon(true);
			this.pump.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + this.name + ": " + this.command, ex);
		}
	}

	private void pump(Process started, CountDownLatch startedReady) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8));
				BufferedWriter writer = Files.newBufferedWriter(this.log, StandardCharsets.UTF_8,
						StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
			writer.write("---- " + this.name + " pid " + started.pid() + " ----");
			writer.newLine();
			String line;
			while ((line = reader.readLine()) != null) {
				writer.write(line);
				writer.newLine();
				writer.flush();
				synchronized (this.tail) {
					this.tail.addLast(line);
					if (this.tail.size() > 200) {
						this.tail.removeFirst();
					}
				}
				if (line.contains(this.readyMarker)) {
					startedReady.countDown();
				}
			}
		}
		catch (IOException ex) {
			// the process went away; its exit is observed through isAlive()
		}
	}

	/** Waits until the current process printed its ready marker; false on timeout or exit. */
	public boolean awaitReady(Duration timeout) throws InterruptedException {
		CountDownLatch latch = this.ready;
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (latch.await(50, TimeUnit.MILLISECONDS)) {
				return true;
			}
			if (!isAlive()) {
				return latch.getCount() == 0;
			}
		}
		return false;
	}

	public boolean isReady() {
		return this.ready.getCount() == 0 && isAlive();
	}

	public synchronized boolean isAlive() {
		return this.process != null && this.process.isAlive();
	}

	public synchronized long pid() {
		return (this.process != null) ? this.process.pid() : -1;
	}

	/** Exit code of the last process, or -1 while it runs or before it started. */
	public synchronized int exitValue() {
		return (this.process != null && !this.process.isAlive()) ? this.process.exitValue() : -1;
	}

	/**
	 * Sends SIGKILL and waits for the process to disappear.
	 * @return the killed process's pid
	 */
	public long kill() throws InterruptedException {
		Process killed;
		synchronized (this) {
			killed = this.process;
		}
		killed.destroyForcibly();
		if (!killed.waitFor(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException(this.name + " (pid " + killed.pid() + ") survived SIGKILL");
		}
		awaitPump();
		return killed.pid();
	}

	/**
	 * Asks the process to stop (SIGTERM, so Spring closes the context and the worker shuts
	 * down gracefully), then kills it if it is still running after the grace period.
	 * @return the exit code
	 */
	public int stop(Duration grace) throws InterruptedException {
		Process stopping;
		synchronized (this) {
			stopping = this.process;
		}
		if (stopping == null) {
			return -1;
		}
		stopping.destroy();
		if (!stopping.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
			stopping.destroyForcibly();
			stopping.waitFor(30, TimeUnit.SECONDS);
		}
		awaitPump();
		return stopping.exitValue();
	}

	private void awaitPump() throws InterruptedException {
		Thread current = this.pump;
		if (current != null) {
			current.join(5_000);
		}
	}

	/** The last lines the process printed (up to 200). */
	public String tail(int lines) {
		synchronized (this.tail) {
			List<String> all = List.copyOf(this.tail);
			return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
		}
	}

	@Override
	public String toString() {
		return this.name + "(pid " + pid() + ")";
	}

}
