package dev.ojs.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The checked-in lists of cases that are expected not to pass, one case a line: its
 * {@code test_id}, its name (the suite gives some ids to two cases), then the reason;
 * {@code #} starts a comment.
 * <ul>
 * <li>{@code conformance/unpassable.txt}: cases that cannot pass as written (the suite's
 * README lists them); they are not run, and are reported with their reason.</li>
 * <li>{@code conformance/known-gaps.txt}: cases that fail because the product lacks
 * something; a listed case that fails is reported and skipped, one that passes fails the
 * build until it is taken off the list, so the list only shrinks.</li>
 * </ul>
 */
final class KnownCases {

	private final Map<String, String> unpassable;

	private final Map<String, String> gaps;

	private KnownCases(Map<String, String> unpassable, Map<String, String> gaps) {
		this.unpassable = unpassable;
		this.gaps = gaps;
	}

	static KnownCases load() {
		return new KnownCases(read("conformance/unpassable.txt"), read("conformance/known-gaps.txt"));
	}

	/** Why a case cannot pass as written, or {@code null}. */
	@Nullable String unpassable(ConformanceCase testCase) {
		return this.unpassable.get(key(testCase.id(), testCase.name()));
	}

	/** The gap a case is known to fail on, or {@code null}. */
	@Nullable String gap(ConformanceCase testCase) {
		return this.gaps.get(key(testCase.id(), testCase.name()));
	}

	/** The entries of both lists that name no case of the suite (a typo, or a case renamed). */
	List<String> strangers(List<ConformanceCase> cases) {
		Set<String> keys = cases.stream().map((testCase) -> key(testCase.id(), testCase.name())).collect(Collectors.toSet());
		return Stream.concat(this.unpassable.keySet().stream(), this.gaps.keySet().stream())
			.filter((key) -> !keys.contains(key))
			.toList();
	}

	private static String key(String id, String name) {
		return id + " " + name;
	}

	private static Map<String, String> read(String resource) {
		Map<String, String> reasons = new LinkedHashMap<>();
		try (InputStream in = KnownCases.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("Missing test resource " + resource);
			}
			for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
				String entry = line.strip();
				if (entry.isEmpty() || entry.startsWith("#")) {
					continue;
				}
				String[] parts = entry.split("\\s+", 3);
				if (parts.length < 3) {
					throw new IllegalStateException(resource + ": expected an id, a name and a reason in: " + entry);
				}
				if (reasons.put(key(parts[0], parts[1]), parts[2]) != null) {
					throw new IllegalStateException(resource + " lists " + parts[0] + " " + parts[1] + " twice");
				}
			}
			return reasons;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
