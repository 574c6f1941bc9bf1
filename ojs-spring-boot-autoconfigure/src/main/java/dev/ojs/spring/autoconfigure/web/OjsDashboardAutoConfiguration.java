package dev.ojs.spring.autoconfigure.web;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

import dev.ojs.web.dashboard.OjsDashboardController;

/**
 * The OJS dashboard and its Admin API on the application's own port and context path, when
 * {@code ojs.dashboard.enabled=true}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty(name = "ojs.dashboard.enabled")
public final class OjsDashboardAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OjsDashboardController ojsDashboardController(@Value("${ojs.dashboard.path:/ojs}") String path) {
		return new OjsDashboardController(path);
	}

}
