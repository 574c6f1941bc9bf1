package dev.ojs.admin;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * Where a keyset page ends: the last row's {@code created_at} and id. Its opaque text form
 * is what the Admin API hands out as {@code next_cursor}.
 *
 * @param createdAt the last row's creation time
 * @param id the last row's id
 */
public record PageCursor(Instant createdAt, String id) {

	/** The opaque form: URL-safe Base64 of {@code <epoch micros>:<id>}. */
	public String encode() {
		long micros = Math.addExact(Math.multiplyExact(this.createdAt.getEpochSecond(), 1_000_000L),
				this.createdAt.getNano() / 1000);
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString((micros + ":" + this.id).getBytes(StandardCharsets.US_ASCII));
	}

	/**
	 * Reads an opaque cursor.
	 * @throws IllegalArgumentException when it is not one this class wrote
	 */
	public static PageCursor decode(String text) {
		try {
			String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
			int colon = plain.indexOf(':');
			long micros = Long.parseLong(plain.substring(0, colon));
			String id = plain.substring(colon + 1);
			if (id.isEmpty() || id.length() > 36) {
				throw new IllegalArgumentException("bad id");
			}
			return new PageCursor(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
					Math.floorMod(micros, 1_000_000L) * 1000), id);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("Invalid cursor: " + text);
		}
	}

}
