package dev.ojs.conformance;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * JSON values as the reference runner holds them after Go's {@code json.Unmarshal} into
 * {@code any}: {@link Map} (object), {@link List} (array), {@link String}, {@link Double}
 * (every number is a {@code float64}), {@link Boolean}, and {@code null} for both JSON null
 * and a missing field. Also the two ways the runner turns a value back into text: Go's
 * {@code %v} ({@link #format}) and {@code json.Marshal} ({@link #marshal}).
 */
final class GoValues {

	private GoValues() {
	}

	/** The Go value of a parsed JSON node. */
	static @Nullable Object of(JsonNode node) {
		if (node.isObject()) {
			Map<String, @Nullable Object> map = new LinkedHashMap<>();
			node.properties().forEach((entry) -> map.put(entry.getKey(), of(entry.getValue())));
			return map;
		}
		if (node.isArray()) {
			List<@Nullable Object> list = new ArrayList<>();
			node.values().forEach((element) -> list.add(of(element)));
			return list;
		}
		if (node.isString()) {
			return node.stringValue();
		}
		if (node.isNumber()) {
			return node.doubleValue();
		}
		if (node.isBoolean()) {
			return node.booleanValue();
		}
		return null;
	}

	/** Go's {@code %v}: strings as they are, numbers as {@code %g}, {@code map[k:v]}, {@code [a b]}. */
	static String format(@Nullable Object value) {
		if (value == null) {
			return "<nil>";
		}
		if (value instanceof Double number) {
			return formatFloat(number);
		}
		if (value instanceof Map<?, ?> map) {
			StringBuilder text = new StringBuilder("map[");
			new TreeMap<>(map).forEach((key, element) -> {
				text.append((text.length() > 4) ? " " : "").append(key).append(':').append(format(element));
			});
			return text.append(']').toString();
		}
		if (value instanceof List<?> list) {
			List<String> elements = new ArrayList<>();
			list.forEach((element) -> elements.add(format(element)));
			return "[" + String.join(" ", elements) + "]";
		}
		return value.toString();
	}

	/** Go's {@code json.Marshal}: keys sorted, HTML characters escaped, numbers without a needless decimal. */
	static String marshal(@Nullable Object value) {
		if (value == null) {
			return "null";
		}
		if (value instanceof Double number) {
			return marshalFloat(number);
		}
		if (value instanceof String text) {
			return quote(text);
		}
		if (value instanceof Map<?, ?> map) {
			List<String> members = new ArrayList<>();
			new TreeMap<>(map).forEach((key, element) -> members.add(quote((String) key) + ":" + marshal(element)));
			return "{" + String.join(",", members) + "}";
		}
		if (value instanceof List<?> list) {
			List<String> elements = new ArrayList<>();
			list.forEach((element) -> elements.add(marshal(element)));
			return "[" + String.join(",", elements) + "]";
		}
		return value.toString();
	}

	/** Go's {@code %T} of a value, for messages. */
	static String typeName(@Nullable Object value) {
		if (value == null) {
			return "<nil>";
		}
		return switch (jsonType(value)) {
			case "string" -> "string";
			case "number" -> "float64";
			case "boolean" -> "bool";
			case "array" -> "[]interface {}";
			case "object" -> "map[string]interface {}";
			default -> value.getClass().getSimpleName();
		};
	}

	/** The JSON type name of {@code $type}. */
	static String jsonType(@Nullable Object value) {
		if (value == null) {
			return "null";
		}
		if (value instanceof String) {
			return "string";
		}
		if (value instanceof Double) {
			return "number";
		}
		if (value instanceof Boolean) {
			return "boolean";
		}
		if (value instanceof List) {
			return "array";
		}
		if (value instanceof Map) {
			return "object";
		}
		return value.getClass().getSimpleName();
	}

	/** Whether a float64 holds a whole number ({@code v == float64(int64(v))}). */
	static boolean isWhole(double value) {
		return !Double.isInfinite(value) && value == (double) (long) value;
	}

	/** Go's {@code %v} of a float64: shortest digits, exponent form below 1e-4 and from 1e6 ({@code 1e+06}). */
	private static String formatFloat(double value) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			return Double.isNaN(value) ? "NaN" : ((value > 0) ? "+Inf" : "-Inf");
		}
		if (value == 0) {
			return (1 / value < 0) ? "-0" : "0";
		}
		BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
		String digits = decimal.unscaledValue().abs().toString();
		int exponent = digits.length() - 1 - decimal.scale();
		if (exponent < -4 || exponent >= 6) {
			return exponentForm(value < 0, digits, exponent);
		}
		return decimal.toPlainString();
	}

	/** Go's JSON float: plain digits, exponent form below 1e-6 and from 1e21. */
	private static String marshalFloat(double value) {
		double abs = Math.abs(value);
		if (abs == 0) {
			return (1 / value < 0) ? "-0" : "0";
		}
		BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
		if (abs < 1e-6 || abs >= 1e21) {
			String digits = decimal.unscaledValue().abs().toString();
			int exponent = digits.length() - 1 - decimal.scale();
			String text = exponentForm(value < 0, digits, exponent);
			// Go writes e-7, not e-07
			return text.replaceFirst("e-0(\\d)$", "e-$1");
		}
		return decimal.toPlainString();
	}

	private static String exponentForm(boolean negative, String digits, int exponent) {
		StringBuilder text = new StringBuilder(negative ? "-" : "").append(digits.charAt(0));
		if (digits.length() > 1) {
			text.append('.').append(digits, 1, digits.length());
		}
		text.append('e').append((exponent < 0) ? '-' : '+');
		int abs = Math.abs(exponent);
		return text.append((abs < 10) ? "0" : "").append(abs).toString();
	}

	private static String quote(String text) {
		StringBuilder quoted = new StringBuilder("\"");
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> quoted.append("\\\"");
				case '\\' -> quoted.append("\\\\");
				case '\n' -> quoted.append("\\n");
				case '\r' -> quoted.append("\\r");
				case '\t' -> quoted.append("\\t");
				case '\b' -> quoted.append("\\b");
				case '\f' -> quoted.append("\\f");
				default -> {
					if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
						quoted.append(String.format("\\u%04x", (int) c));
					}
					else {
						quoted.append(c);
					}
				}
			}
		}
		return quoted.append('"').toString();
	}

}
