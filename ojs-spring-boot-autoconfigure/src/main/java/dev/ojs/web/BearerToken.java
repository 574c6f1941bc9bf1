package dev.ojs.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * A static bearer token (RFC 6750 §2.1), compared in constant time. The scheme name is
 * case-insensitive (RFC 7235 §2.1): {@code Bearer}, {@code bearer} and {@code BEARER} are one.
 */
public final class BearerToken {

	private static final String SCHEME = "bearer";

	private final byte[] token;

	private BearerToken(String token) {
		this.token = token.getBytes(StandardCharsets.UTF_8);
	}

	/** The token, or {@code null} when none is configured (null or blank). */
	public static @Nullable BearerToken of(@Nullable String token) {
		return (token != null && !token.isBlank()) ? new BearerToken(token.strip()) : null;
	}

	/** Whether an {@code Authorization} header carries this token. */
	public boolean matches(@Nullable String authorization) {
		byte[] given = credentials(authorization);
		return given != null && MessageDigest.isEqual(this.token, given);
	}

	/** The token of a {@code Bearer} authorization, whatever the scheme's case. */
	static byte @Nullable [] credentials(@Nullable String authorization) {
		if (authorization == null || authorization.length() <= SCHEME.length()
				|| !authorization.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals(SCHEME)
				|| authorization.charAt(SCHEME.length()) != ' ') {
			return null;
		}
		String token = authorization.substring(SCHEME.length()).strip();
		return token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
	}

}
