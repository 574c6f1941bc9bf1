package dev.ojs.web.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * Spring Security mode of the matrix: {@code @EnableWebSecurity} and one HTTP Basic user per
 * role of the starter's defaults (password {@value SecurityMatrix#PASSWORD}), plus one with a
 * role the starter does not know.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
class MatrixUsers {

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(user("producer", SecurityMatrix.PRODUCER_ROLE),
				user("worker", SecurityMatrix.WORKER_ROLE), user("admin", SecurityMatrix.ADMIN_ROLE),
				user("viewer", SecurityMatrix.VIEWER_ROLE), user("nobody", "OTHER"));
	}

	private static UserDetails user(String name, String role) {
		return User.withUsername(name).password("{noop}" + SecurityMatrix.PASSWORD).roles(role).build();
	}

}
