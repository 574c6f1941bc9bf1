package dev.ojs.spring.autoconfigure.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.ojs.web.BearerToken;

/**
 * Authenticates a request of the binding's security chain that carries {@code ojs.http.token}
 * as its bearer token, for this request only, as the principal {@value #PRINCIPAL} holding
 * one role. A request with another token stays anonymous, and the chain refuses it.
 */
final class TokenAuthenticationFilter extends OncePerRequestFilter {

	static final String PRINCIPAL = "ojs-http-token";

	private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

	private final BearerToken token;

	private final String role;

	TokenAuthenticationFilter(BearerToken token, String role) {
		this.token = token;
		this.role = role;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (this.token.matches(request.getHeader("Authorization"))) {
			SecurityContext context = this.contexts.createEmptyContext();
			context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(PRINCIPAL, null,
					AuthorityUtils.createAuthorityList("ROLE_" + this.role)));
			this.contexts.setContext(context);
		}
		chain.doFilter(request, response);
	}

}
