package dev.ojs.spring.autoconfigure.web;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

import dev.ojs.web.ApiExceptionHandler;
import dev.ojs.web.OjsErrorResolver;
import dev.ojs.web.StorableTextBodyAdvice;
import dev.ojs.web.StorableTextInterceptor;

/**
 * What the binding and the Admin API share, imported by both auto-configurations and
 * defined once: the error body for every answer under an OJS surface
 * ({@link ApiExceptionHandler} for the OJS controllers, {@link OjsErrorResolver} where none
 * was found), and the refusal of text the store cannot keep in bodies
 * ({@link StorableTextBodyAdvice}) and query parameters ({@link StorableTextInterceptor}).
 */
@Configuration(proxyBeanMethods = false)
class OjsWebErrorsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ApiExceptionHandler ojsApiExceptionHandler() {
		return new ApiExceptionHandler();
	}

	@Bean
	@ConditionalOnMissingBean
	OjsErrorResolver ojsErrorResolver(ObjectProvider<JsonMapper> jsonMapper, Environment environment) {
		return new OjsErrorResolver(jsonMapper.getIfUnique(JsonMapper::new), OjsSurfacePaths.surfaces(environment));
	}

	@Bean
	@ConditionalOnMissingBean
	StorableTextBodyAdvice ojsStorableTextBodyAdvice() {
		return new StorableTextBodyAdvice();
	}

	@Bean
	@ConditionalOnMissingBean(name = "ojsStorableTextConfigurer")
	WebMvcConfigurer ojsStorableTextConfigurer() {
		StorableTextInterceptor interceptor = new StorableTextInterceptor();
		return new WebMvcConfigurer() {
			@Override
			public void addInterceptors(InterceptorRegistry registry) {
				registry.addInterceptor(interceptor);
			}
		};
	}

}
