package dev.ojs.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The results of one run of the suite on one database: a table of passed cases per level,
 * then every case that did not pass with its reason and failures, then the cases not run
 * because they cannot pass as written.
 */
final class ConformanceReport {

	/** How a case counts in the report. */
	enum Verdict {

		/** Passed and not on a list. */
		PASSED,
		/** Passed, though known-gaps.txt still lists it. */
		PASSES_NOW,
		/** Failed for the gap known-gaps.txt names. */
		KNOWN_GAP,
		/** Failed and on no list. */
		FAILED,
		/** Not run: unpassable.txt lists it. */
		UNPASSABLE

	}

	private record Entry(ConformanceCase testCase, Verdict verdict, String reason, @Nullable CaseResult result) {
	}

	private static final int MAX_TEXT = 800;

	private final String database;

	private final Path suites;

	private final long start = System.nanoTime();

	private final List<Entry> entries = new ArrayList<>();

	ConformanceReport(String database, Path suites) {
		this.database = database;
		this.suites = suites;
	}

	synchronized void unpassable(ConformanceCase testCase, String reason) {
		this.entries.add(new Entry(testCase, Verdict.UNPASSABLE, reason, null));
	}

	/** Records a run; {@code gap} is the reason known-gaps.txt gives, or {@code null}. */
	synchronized Verdict add(CaseResult result, @Nullable String gap) {
		Verdict verdict = result.passed() ? ((gap != null) ? Verdict.PASSES_NOW : Verdict.PASSED)
				: ((gap != null) ? Verdict.KNOWN_GAP : Verdict.FAILED);
		this.entries.add(new Entry(result.testCase(), verdict, (gap != null) ? gap : "", result));
		return verdict;
	}

	/**
	 * The level the suite's rule gives: the highest level whose cases, and those of every
	 * lower level, all pass (unpassable ones aside); {@code "none"} when level 0 does not.
	 */
	synchronized String reachedLevel() {
		return level(counts());
	}

	/** Per level: passed, total, known gaps, unexpected, unpassable. */
	private TreeMap<Integer, int[]> counts() {
		TreeMap<Integer, int[]> levels = new TreeMap<>();
		for (Entry entry : this.entries) {
			int[] counts = levels.computeIfAbsent(entry.testCase().level(), (level) -> new int[5]);
			counts[0] += (entry.verdict() == Verdict.PASSED || entry.verdict() == Verdict.PASSES_NOW) ? 1 : 0;
			counts[1]++;
			counts[2] += (entry.verdict() == Verdict.KNOWN_GAP) ? 1 : 0;
			counts[3] += (entry.verdict() == Verdict.FAILED || entry.verdict() == Verdict.PASSES_NOW) ? 1 : 0;
			counts[4] += (entry.verdict() == Verdict.UNPASSABLE) ? 1 : 0;
		}
		return levels;
	}

	synchronized String render() {
		StringBuilder text = new StringBuilder();
		long seconds = (System.nanoTime() - this.start) / 1_000_000_000;
		text.append(String.format(Locale.ROOT, "OJS conformance suite on %s: %d cases in %d s (%s)%n", this.database,
				this.entries.size(), seconds, this.suites));
		text.append(String.format(Locale.ROOT, "%-11s %5s %7s %6s %10s %10s %10s%n", "database", "level", "passed",
				"total", "known gaps", "unexpected", "unpassable"));
		TreeMap<Integer, int[]> levels = counts();
		levels.forEach((level, counts) -> text.append(String.format(Locale.ROOT, "%-11s %5d %7d %6d %10d %10d %10d%n",
				this.database, level, counts[0], counts[1], counts[2], counts[3], counts[4])));
		text.append(String.format(Locale.ROOT, "Level reached (every case of it and of each lower level passes, "
				+ "unpassable ones aside): %s%n", level(levels)));
		section(text, "Cases that pass though known-gaps.txt lists them (take them off the list)", Verdict.PASSES_NOW);
		section(text, "Unexpected failures", Verdict.FAILED);
		section(text, "Known gaps (known-gaps.txt)", Verdict.KNOWN_GAP);
		section(text, "Not run: unpassable as written (unpassable.txt)", Verdict.UNPASSABLE);
		return text.toString();
	}

	/** Prints the report and writes it to {@code target/conformance/<database>.txt}. */
	void publish() {
		String text = render();
		System.out.println(text);
		try {
			Path file = Path.of("target", "conformance", this.database.toLowerCase(Locale.ROOT) + ".txt");
			Files.createDirectories(file.getParent());
			Files.writeString(file, text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String level(TreeMap<Integer, int[]> levels) {
		int reached = -1;
		for (int level = 0; level <= 4; level++) {
			int[] counts = levels.get(level);
			if (counts == null || counts[0] + counts[4] < counts[1]) {
				break;
			}
			reached = level;
		}
		return (reached < 0) ? "none" : Integer.toString(reached);
	}

	private void section(StringBuilder text, String title, Verdict verdict) {
		List<Entry> selected = this.entries.stream().filter((entry) -> entry.verdict() == verdict).toList();
		if (selected.isEmpty()) {
			return;
		}
		text.append(String.format("%n%s (%d):%n", title, selected.size()));
		for (Entry entry : selected) {
			text.append("  ").append(entry.testCase().id()).append(' ').append(entry.testCase().name());
			text.append(entry.reason().isEmpty() ? "" : " — " + entry.reason()).append(System.lineSeparator());
			if (entry.result() != null && verdict != Verdict.PASSES_NOW) {
				entry.result().failures().forEach((failure) -> text.append("      ")
					.append(shorten(failure.describe()))
					.append(System.lineSeparator()));
			}
		}
	}

	private static String shorten(String text) {
		String line = text.replace('\n', ' ');
		return (line.length() > MAX_TEXT) ? line.substring(0, MAX_TEXT) + "…" : line;
	}

}
