package dev.ojs.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Figures sampled over time: fixed named columns, the first being the time, one row per
 * sample. A figure a sample lacks is {@code NaN} (an empty CSV cell).
 */
public final class TimeSeries {

	private final List<String> columns;

	private final List<double[]> rows = new ArrayList<>();

	/**
	 * A series with no rows yet.
	 * @param columns the column names (letters, digits, {@code _}); the first is the time axis
	 */
	public TimeSeries(List<String> columns) {
		if (columns.isEmpty() || columns.stream().anyMatch((name) -> !name.matches("[A-Za-z0-9_]+"))) {
			throw new IllegalArgumentException("Columns must be non-empty names of letters, digits and _: " + columns);
		}
		this.columns = List.copyOf(columns);
	}

	public List<String> columns() {
		return this.columns;
	}

	public int size() {
		return this.rows.size();
	}

	/**
	 * Adds a sample.
	 * @param figures figures by column name; missing ones are {@code NaN}
	 * @throws IllegalArgumentException for a figure of no column
	 */
	public void add(Map<String, Double> figures) {
		for (String name : figures.keySet()) {
			if (!this.columns.contains(name)) {
				throw new IllegalArgumentException("No column " + name + " in " + this.columns);
			}
		}
		double[] row = new double[this.columns.size()];
		for (int i = 0; i < row.length; i++) {
			Double value = figures.get(this.columns.get(i));
			row[i] = (value != null) ? value : Double.NaN;
		}
		this.rows.add(row);
	}

	/** A column's values in sample order. */
	public double[] column(String name) {
		int index = this.columns.indexOf(name);
		if (index < 0) {
			throw new IllegalArgumentException("No column " + name);
		}
		return this.rows.stream().mapToDouble((row) -> row[index]).toArray();
	}

	/** The series as CSV: a header line of the column names, then one line per sample. */
	public String toCsv() {
		StringBuilder csv = new StringBuilder(String.join(",", this.columns)).append('\n');
		for (double[] row : this.rows) {
			StringJoiner line = new StringJoiner(",");
			for (double value : row) {
				line.add(cell(value));
			}
			csv.append(line).append('\n');
		}
		return csv.toString();
	}

	/** A whole number without decimals, others with up to three, {@code NaN} as empty. */
	public static String cell(double value) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			return "";
		}
		if (value == Math.rint(value) && Math.abs(value) < 1e15) {
			return Long.toString((long) value);
		}
		return String.format(Locale.ROOT, "%.3f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
	}

}
