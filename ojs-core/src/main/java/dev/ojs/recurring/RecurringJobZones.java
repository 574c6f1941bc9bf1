package dev.ojs.recurring;

import java.time.ZoneId;
import java.util.Set;

/**
 * Time zones of recurring jobs (ojs-cron.md §5.1): IANA names only, default {@value #DEFAULT}
 * (CRON-13/14/15). The JDK's zone database also holds legacy ids that are abbreviations or
 * fixed offsets ({@code EST}, {@code EST5EDT}, {@code Etc/GMT+5}); those are rejected, as are
 * offsets such as {@code +05:00} and {@code UTC+5}.
 */
public final class RecurringJobZones {

	/** The zone of a recurring job that names none (CRON-15). */
	public static final String DEFAULT = "UTC";

	private static final Set<String> WITHOUT_AREA = Set.of("UTC", "Etc/UTC");

	private RecurringJobZones() {
	}

	/**
	 * The zone named {@code name} ({@value #DEFAULT} when blank).
	 * @throws RecurringJobValidationException for an offset, an abbreviation or an unknown name
	 */
	public static ZoneId of(String name) {
		String zone = (name == null || name.isBlank()) ? DEFAULT : name.strip();
		boolean region = WITHOUT_AREA.contains(zone) || (zone.indexOf('/') > 0 && !zone.startsWith("Etc/GMT")
				&& ZoneId.getAvailableZoneIds().contains(zone));
		if (!region) {
			throw new RecurringJobValidationException("timezone", "'" + zone
					+ "' is not an IANA time zone name such as Europe/Berlin or UTC (offsets and abbreviations are not accepted)");
		}
		return ZoneId.of(zone);
	}

}
