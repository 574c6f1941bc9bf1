package dev.ojs.spring.autoconfigure.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;

/**
 * The dashboard's CSRF tokens, kept in the session, which is made only for an authenticated
 * user: a token generated for a request that has not (or not yet) authenticated, such as a
 * write with a wrong password that the CSRF check refuses, is used for that request alone, so
 * that no anonymous request leaves a session behind.
 */
final class SessionCsrfTokens implements CsrfTokenRepository {

	private final HttpSessionCsrfTokenRepository sessions = new HttpSessionCsrfTokenRepository();

	@Override
	public CsrfToken generateToken(HttpServletRequest request) {
		return this.sessions.generateToken(request);
	}

	@Override
	public void saveToken(@Nullable CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
		if (token == null || request.getSession(false) != null || isAuthenticated()) {
			this.sessions.saveToken(token, request, response);
		}
	}

	@Override
	public @Nullable CsrfToken loadToken(HttpServletRequest request) {
		return this.sessions.loadToken(request);
	}

	private static boolean isAuthenticated() {
		Authentication authentication = SecurityContextHolder.getContextHolderStrategy().getContext().getAuthentication();
		return authentication != null && authentication.isAuthenticated()
				&& !(authentication instanceof AnonymousAuthenticationToken);
	}

}
