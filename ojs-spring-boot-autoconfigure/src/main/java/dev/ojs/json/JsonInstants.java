package dev.ojs.json;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.jspecify.annotations.Nullable;

/**
 * The two spellings of an instant in the JSON views: the HTTP binding's RFC 3339 UTC
 * timestamp with milliseconds (ojs-http-binding.md §6.3), and the Admin API's RFC 3339 UTC
 * instant at the precision stored.
 */
public final class JsonInstants {

	private static final DateTimeFormatter BINDING = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private JsonInstants() {
	}

	/** The binding's timestamp, or {@code null}. */
	public static @Nullable String binding(@Nullable Instant instant) {
		return (instant != null) ? BINDING.format(instant) : null;
	}

	/** The Admin API's instant, or {@code null}. */
	public static @Nullable String admin(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

}
