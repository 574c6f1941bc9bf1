package dev.ojs.admin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link PageCursor}: the opaque {@code next_cursor} of the Admin API's job lists
 * (ojs-admin-api.md §7.1).
 */
class PageCursorTests {

	private static final String ID = "019414d4-8b2e-7c3a-b5d1-f0e2a3b4c5d6";

	@Test
	void survivesItsOpaqueForm() {
		assertThat(PageCursor.decode(new PageCursor(ID).encode())).isEqualTo(new PageCursor(ID));
	}

	@Test
	void readsACursorOfTheEarlierCreationTimeAndIdForm() {
		assertThat(PageCursor.decode(opaque("1735689600123456:" + ID))).isEqualTo(new PageCursor(ID));
	}

	@Test
	void readsTheIdInItsLowercaseForm() {
		assertThat(PageCursor.decode(opaque(ID.toUpperCase()))).isEqualTo(new PageCursor(ID));
	}

	@Test
	void refusesWhatIsNotACursorOfAJobId() {
		for (String text : new String[] { "not base64!", opaque("1735689600123456:"), opaque("1-2-3-4-5"),
				opaque(ID + "0"), opaque("019414d4-8b2e-7c3a-b5d1-f0e2a3b4c5dz"), "" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> PageCursor.decode(text))
				.withMessageStartingWith("Invalid cursor: ");
		}
	}

	private static String opaque(String plain) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
	}

}
