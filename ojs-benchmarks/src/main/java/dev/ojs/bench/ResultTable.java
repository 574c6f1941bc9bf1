package dev.ojs.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A plain-text table with left-aligned first column and right-aligned figures.
 */
public final class ResultTable {

	private final String title;

	private final List<String> headers;

	private final List<List<String>> rows = new ArrayList<>();

	public ResultTable(String title, String... headers) {
		this.title = title;
		this.headers = List.of(headers);
	}

	/**
	 * Adds a row; numbers are formatted with {@link #format(Object)}.
	 * @param cells one per header
	 * @return this table
	 */
	public ResultTable row(Object... cells) {
		if (cells.length != this.headers.size()) {
			throw new IllegalArgumentException(
					"Expected " + this.headers.size() + " cells but got " + Arrays.toString(cells));
		}
		List<String> row = new ArrayList<>(cells.length);
		for (Object cell : cells) {
			row.add(format(cell));
		}
		this.rows.add(row);
		return this;
	}

	public List<List<String>> rows() {
		return List.copyOf(this.rows);
	}

	public void print(PrintStream out) {
		out.print(render());
		out.flush();
	}

	public String render() {
		int[] widths = new int[this.headers.size()];
		for (int i = 0; i < widths.length; i++) {
			widths[i] = this.headers.get(i).length();
			for (List<String> row : this.rows) {
				widths[i] = Math.max(widths[i], row.get(i).length());
			}
		}
		StringBuilder out = new StringBuilder();
		out.append("== ").append(this.title).append(" ==").append(System.lineSeparator());
		appendRow(out, this.headers, widths);
		StringBuilder rule = new StringBuilder();
		for (int i = 0; i < widths.length; i++) {
			rule.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
		}
		out.append(rule).append(System.lineSeparator());
		for (List<String> row : this.rows) {
			appendRow(out, row, widths);
		}
		return out.toString();
	}

	private static void appendRow(StringBuilder out, List<String> cells, int[] widths) {
		for (int i = 0; i < cells.size(); i++) {
			String cell = cells.get(i);
			String pad = " ".repeat(widths[i] - cell.length());
			out.append(i == 0 ? "" : " | ").append(i == 0 ? cell + pad : pad + cell);
		}
		out.append(System.lineSeparator());
	}

	/**
	 * Formats a cell: whole numbers with thousands separators, other numbers with two
	 * decimals, {@code NaN} as {@code n/a}.
	 * @param value the cell value
	 * @return its text
	 */
	public static String format(Object value) {
		if (value instanceof Double || value instanceof Float) {
			double number = ((Number) value).doubleValue();
			return Double.isNaN(number) ? "n/a" : String.format(Locale.ROOT, "%,.2f", number);
		}
		if (value instanceof Number number) {
			return String.format(Locale.ROOT, "%,d", number.longValue());
		}
		return String.valueOf(value);
	}

}
