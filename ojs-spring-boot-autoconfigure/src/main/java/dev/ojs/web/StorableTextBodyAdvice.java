package dev.ojs.web;

import java.lang.reflect.Type;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Applies {@link StorableText} to the request bodies the OJS controllers read as objects (the
 * Admin API's), as read and before the controller acts. The binding reads its bodies as text
 * and checks them as it parses them.
 */
@ControllerAdvice(basePackages = "dev.ojs.web")
public class StorableTextBodyAdvice extends RequestBodyAdviceAdapter {

	@Override
	public boolean supports(MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) {
		return !String.class.equals(targetType);
	}

	@Override
	public Object afterBodyRead(Object body, HttpInputMessage inputMessage, MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) {
		StorableText.check(body, "");
		return body;
	}

}
