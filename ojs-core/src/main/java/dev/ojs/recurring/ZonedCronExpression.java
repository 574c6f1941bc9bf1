package dev.ojs.recurring;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.support.CronExpression;

/**
 * A recurring job's expression in its zone (ojs-cron.md §3–5): when it fires next.
 * <p>
 * Calendar expressions are parsed by Spring's {@link CronExpression}, which knows the six
 * fields (seconds first), ranges, lists, steps, names in any case, {@code L}, {@code W} and
 * {@code #}. What it lacks is covered here: a 5-field expression (told apart by its token count,
 * CRON-08) gets second 0; the macros map to the spec's equivalents (§4, CRON-12);
 * {@code @every <duration>} (§4.1) is a fixed interval anchored at the recurring job's
 * registration. Spring steps through zoned date-times and fires a local time that a DST
 * fall-back repeats twice (or only at its second occurrence); here the next occurrence is found in
 * local time and then placed in the zone: a local time a spring-forward skips does not fire
 * (CRON-16), and a repeated one fires once, at its first occurrence (CRON-17).
 */
public final class ZonedCronExpression {

	/** The fields of a 6-field expression, for messages naming the field at fault. */
	private static final List<String> FIELDS = List.of("second", "minute", "hour", "day_of_month", "month",
			"day_of_week");

	private static final Map<String, String> MACROS = Map.of("@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *",
			"@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *",
			"@hourly", "0 * * * *");

	private static final Pattern EVERY = Pattern.compile("@every\\s+(\\S+)", Pattern.CASE_INSENSITIVE);

	private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ms|s|m|h)");

	/** Shortest {@code @every}: the evaluator runs at most once a second (CRON-24). */
	static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

	/** Local times looked at for one occurrence: bounds the walk over a DST overlap of second-level occurrences. */
	private static final int MAX_STEPS = 10_000;

	private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);

	private final String expression;

	private final ZoneId zone;

	private final @Nullable CronExpression calendar;

	private final @Nullable Duration interval;

	private ZonedCronExpression(String expression, ZoneId zone, @Nullable CronExpression calendar,
			@Nullable Duration interval) {
		this.expression = expression;
		this.zone = zone;
		this.calendar = calendar;
		this.interval = interval;
	}

	/**
	 * Parses an expression in a zone.
	 * @param expression 5 or 6 fields, a macro or {@code @every <duration>}
	 * @param zone an IANA zone name; blank means {@value RecurringJobZones#DEFAULT}
	 * @throws RecurringJobValidationException naming the field at fault (CRON-03/11/13/14)
	 */
	public static ZonedCronExpression parse(String expression, String zone) {
		ZoneId zoneId = RecurringJobZones.of(zone);
		if (expression == null || expression.isBlank()) {
			throw new RecurringJobValidationException("cron", "the expression must not be empty");
		}
		String text = expression.strip();
		Matcher every = EVERY.matcher(text);
		if (every.matches()) {
			return new ZonedCronExpression(text, zoneId, null, interval(every.group(1)));
		}
		String fields = text.startsWith("@") ? MACROS.get(text.toLowerCase(Locale.ROOT)) : text;
		if (fields == null) {
			throw new RecurringJobValidationException("cron", "unknown macro '" + text + "'; expected one of "
					+ MACROS.keySet().stream().sorted().toList() + " or @every <duration>");
		}
		String[] tokens = fields.split("\\s+");
		if (tokens.length != 5 && tokens.length != 6) {
			throw new RecurringJobValidationException("cron",
					"expected 5 fields (minute first) or 6 (second first), got " + tokens.length + " in '" + text + "'");
		}
		if (tokens.length == 5) {
			String[] six = new String[6];
			six[0] = "0";
			System.arraycopy(tokens, 0, six, 1, 5);
			tokens = six;
		}
		CronExpression parsed = calendar(tokens);
		if (parsed.next(LocalDateTime.of(2000, 1, 1, 0, 0)) == null) {
			throw new RecurringJobValidationException("cron", "'" + text + "' never fires");
		}
		return new ZonedCronExpression(text, zoneId, parsed, null);
	}

	private static CronExpression calendar(String[] tokens) {
		try {
			return CronExpression.parse(String.join(" ", tokens));
		}
		catch (IllegalArgumentException ex) {
			// find the field at fault: each token alone, every other field '*'
			for (int i = 0; i < tokens.length; i++) {
				String[] probe = { "0", "*", "*", "*", "*", "*" };
				probe[i] = tokens[i];
				try {
					CronExpression.parse(String.join(" ", probe));
				}
				catch (IllegalArgumentException fieldEx) {
					throw new RecurringJobValidationException("cron." + FIELDS.get(i),
							"'" + tokens[i] + "': " + reason(fieldEx));
				}
			}
			throw new RecurringJobValidationException("cron", reason(ex));
		}
	}

	/** Spring's message without the expression it quotes. */
	private static String reason(IllegalArgumentException ex) {
		String message = String.valueOf(ex.getMessage());
		int quoted = message.indexOf(" in cron expression");
		return (quoted > 0) ? message.substring(0, quoted) : message;
	}

	/** A Go-style duration: {@code 30m}, {@code 1h30m}, {@code 45s}, {@code 1500ms}. */
	private static Duration interval(String text) {
		Matcher part = DURATION_PART.matcher(text.toLowerCase(Locale.ROOT));
		Duration total = Duration.ZERO;
		int end = 0;
		while (part.find() && part.start() == end) {
			long amount;
			try {
				amount = Long.parseLong(part.group(1));
				total = total.plus(switch (part.group(2)) {
					case "ms" -> Duration.ofMillis(amount);
					case "s" -> Duration.ofSeconds(amount);
					case "m" -> Duration.ofMinutes(amount);
					default -> Duration.ofHours(amount);
				});
			}
			catch (ArithmeticException | NumberFormatException ex) {
				throw new RecurringJobValidationException("cron", "@every duration '" + text + "' is too long");
			}
			end = part.end();
		}
		if (end == 0 || end != text.length()) {
			throw new RecurringJobValidationException("cron",
					"@every takes a duration such as 30s, 5m, 1h30m or 1500ms, got '" + text + "'");
		}
		if (total.compareTo(MIN_INTERVAL) < 0) {
			throw new RecurringJobValidationException("cron",
					"@every " + text + " is shorter than 1s: schedules are evaluated at most once a second");
		}
		return total;
	}

	/** The expression as registered. */
	public String expression() {
		return this.expression;
	}

	public ZoneId zone() {
		return this.zone;
	}

	/** Whether this is an {@code @every} recurring job, whose occurrences follow its anchor. */
	public boolean isInterval() {
		return this.interval != null;
	}

	/**
	 * The first occurrence strictly after {@code after}.
	 * @param anchor an {@code @every} recurring job's registration time: its occurrences are
	 * {@code anchor + k * interval}, the first at the anchor itself
	 * @return the occurrence, or {@code null} when the expression fires no more
	 */
	public @Nullable Occurrence next(Instant after, Instant anchor) {
		if (this.interval != null) {
			return nextInterval(after, anchor, this.interval);
		}
		return nextCalendar(after, this.calendar);
	}

	private static Occurrence nextInterval(Instant after, Instant anchor, Duration interval) {
		Instant at = anchor;
		if (!anchor.isAfter(after)) {
			long elapsed = Duration.between(anchor, after).toNanos();
			long steps = elapsed / interval.toNanos() + 1;
			at = anchor.plus(interval.multipliedBy(steps));
		}
		return new Occurrence(at, at.toString(), List.of());
	}

	private @Nullable Occurrence nextCalendar(Instant after, CronExpression calendar) {
		ZoneRules rules = this.zone.getRules();
		LocalDateTime local = LocalDateTime.ofInstant(after, this.zone);
		List<LocalDateTime> skipped = new ArrayList<>();
		for (int i = 0; i < MAX_STEPS; i++) {
			LocalDateTime candidate = calendar.next(local);
			if (candidate == null) {
				return null;
			}
			List<ZoneOffset> offsets = rules.getValidOffsets(candidate);
			if (offsets.isEmpty()) {
				// CRON-16: the local time does not exist today
				skipped.add(candidate);
			}
			else {
				// CRON-17: a repeated local time is placed at its first occurrence (the offset before
				// the transition); when that lies behind us, the local time has fired already
				Instant at = candidate.atOffset(offsets.get(0)).toInstant();
				if (at.isAfter(after)) {
					return new Occurrence(at, LOCAL.format(candidate), skipped);
				}
			}
			local = candidate;
		}
		throw new IllegalStateException("No occurrence of '" + this.expression + "' found after " + after);
	}

	/**
	 * The local time of an occurrence: what its job's unique key carries. Both occurrences of a
	 * repeated local time give the same text, so it yields one job.
	 */
	public String localTime(Instant at) {
		return (this.interval != null) ? at.toString() : LOCAL.format(LocalDateTime.ofInstant(at, this.zone));
	}

	@Override
	public String toString() {
		return this.expression + " (" + this.zone + ")";
	}

}
