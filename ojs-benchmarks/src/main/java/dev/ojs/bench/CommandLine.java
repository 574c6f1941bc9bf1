package dev.ojs.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * {@code --name=value} and {@code --flag} command-line options. Every option a program reads
 * is marked as used; {@link #rejectUnused()} then reports misspelt options instead of
 * silently running with defaults.
 */
public final class CommandLine {

	private final Map<String, String> values;

	private final Set<String> used = new LinkedHashSet<>();

	private CommandLine(Map<String, String> values) {
		this.values = values;
	}

	/**
	 * Parses {@code args}.
	 * @param args arguments such as {@code --jobs=1000} or {@code --smoke}
	 * @return the parsed options
	 * @throws IllegalArgumentException for an argument that does not start with {@code --}
	 */
	public static CommandLine parse(String... args) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String arg : args) {
			if (!arg.startsWith("--") || arg.length() == 2) {
				throw new IllegalArgumentException("Expected --name=value or --flag but got '" + arg + "'");
			}
			int eq = arg.indexOf('=');
			if (eq < 0) {
				values.put(arg.substring(2), "true");
			}
			else {
				values.put(arg.substring(2, eq), arg.substring(eq + 1));
			}
		}
		return new CommandLine(values);
	}

	/**
	 * Options read from a command line, or why there are none.
	 *
	 * @param options the options, {@code null} when {@code --help} was given or the command
	 * line was wrong
	 * @param status exit status to end with when there are no options: 0 after help, 2 for
	 * wrong options
	 * @param <T> the options type
	 */
	public record Parsed<T>(@Nullable T options, int status) {

	}

	/**
	 * Reads a program's options; prints the usage for {@code --help}, and the problem plus
	 * the usage for wrong or unknown options.
	 * @param args the arguments
	 * @param usage the program's usage text
	 * @param out where to print
	 * @param reader reads the options (throwing {@link IllegalArgumentException} for bad ones)
	 * @param <T> the options type
	 * @return the options or the exit status
	 */
	public static <T> Parsed<T> read(String[] args, String usage, PrintStream out, Function<CommandLine, T> reader) {
		try {
			CommandLine line = parse(args);
			if (line.flag("help", false)) {
				out.print(usage);
				return new Parsed<>(null, 0);
			}
			T options = reader.apply(line);
			line.rejectUnused();
			return new Parsed<>(options, 0);
		}
		catch (IllegalArgumentException ex) {
			out.println(ex.getMessage());
			out.print(usage);
			return new Parsed<>(null, 2);
		}
	}

	public boolean has(String name) {
		this.used.add(name);
		return this.values.containsKey(name);
	}

	public @Nullable String string(String name, @Nullable String defaultValue) {
		this.used.add(name);
		return this.values.getOrDefault(name, defaultValue);
	}

	public int integer(String name, int defaultValue) {
		return (int) number(name, defaultValue);
	}

	/** A whole number; {@code _} separators and {@code k}/{@code m} suffixes are allowed (e.g. {@code 200k}). */
	public long number(String name, long defaultValue) {
		String value = string(name, null);
		if (value == null) {
			return defaultValue;
		}
		try {
			return parseNumber(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + name + " must be a whole number but was '" + value + "'");
		}
	}

	public boolean flag(String name, boolean defaultValue) {
		String value = string(name, null);
		if (value == null) {
			return defaultValue;
		}
		if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
			return Boolean.parseBoolean(value);
		}
		throw new IllegalArgumentException("--" + name + " must be true or false but was '" + value + "'");
	}

	/** An ISO-8601 duration ({@code PT5S}) or a number with a unit ({@code 500ms}, {@code 5s}, {@code 2m}). */
	public Duration duration(String name, Duration defaultValue) {
		String value = string(name, null);
		if (value == null) {
			return defaultValue;
		}
		try {
			return parseDuration(value);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(
					"--" + name + " must be a duration such as PT5S, 500ms or 30s but was '" + value + "'");
		}
	}

	public List<String> list(String name, List<String> defaultValue) {
		String value = string(name, null);
		if (value == null) {
			return defaultValue;
		}
		List<String> items = new ArrayList<>();
		for (String item : value.split(",")) {
			if (!item.isBlank()) {
				items.add(item.trim());
			}
		}
		return Collections.unmodifiableList(items);
	}

	/**
	 * Throws when an option was given that no one read.
	 * @throws IllegalArgumentException naming the unknown options
	 */
	public void rejectUnused() {
		List<String> unknown = new ArrayList<>();
		for (String name : this.values.keySet()) {
			if (!this.used.contains(name)) {
				unknown.add("--" + name);
			}
		}
		if (!unknown.isEmpty()) {
			throw new IllegalArgumentException("Unknown option(s): " + String.join(", ", unknown));
		}
	}

	static long parseNumber(String value) {
		String text = value.trim().replace("_", "").toLowerCase(java.util.Locale.ROOT);
		long multiplier = 1;
		if (text.endsWith("k")) {
			multiplier = 1_000;
			text = text.substring(0, text.length() - 1);
		}
		else if (text.endsWith("m")) {
			multiplier = 1_000_000;
			text = text.substring(0, text.length() - 1);
		}
		return Math.multiplyExact(Long.parseLong(text), multiplier);
	}

	static Duration parseDuration(String value) {
		String text = value.trim();
		if (text.regionMatches(true, 0, "P", 0, 1)) {
			return Duration.parse(text);
		}
		if (text.endsWith("ms")) {
			return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
		}
		long amount = Long.parseLong(text.substring(0, text.length() - 1));
		return switch (text.charAt(text.length() - 1)) {
			case 's' -> Duration.ofSeconds(amount);
			case 'm' -> Duration.ofMinutes(amount);
			case 'h' -> Duration.ofHours(amount);
			default -> throw new IllegalArgumentException("Unknown unit in " + value);
		};
	}

}
