package dev.ojs.admin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/**
 * Where a keyset page ends: the last row's id. Ids are UUIDv7 made from the job's creation
 * time, so pages in id order are pages in creation order. Its opaque text form is what the
 * Admin API hands out as {@code next_cursor}.
 *
 * @param id the last row's id
 */
public record PageCursor(String id) {

	/** The opaque form: URL-safe Base64 of the id. */
	public String encode() {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(this.id.getBytes(StandardCharsets.US_ASCII));
	}

	/**
	 * Reads an opaque cursor, also one of the earlier {@code <epoch micros>:<id>} form.
	 * @throws IllegalArgumentException when it is not one this class wrote
	 */
	public static PageCursor decode(String text) {
		try {
			String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
			String id = plain.substring(plain.indexOf(':') + 1);
			if (id.length() != 36) {
				throw new IllegalArgumentException("not a job id");
			}
			// a UUID in its lowercase form, as the id filter reads it
			return new PageCursor(UUID.fromString(id).toString());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid cursor: " + text);
		}
	}

}
