package dev.ojs.bench;

import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link TimeSeries} as an SVG of stacked panels, each a set of polylines over the
 * series' time axis (its first column, in seconds) with its own y scale from 0. Hand-written
 * SVG: no charting dependency.
 */
public final class SoakChart {

	static final int WIDTH = 900;

	static final int PANEL_HEIGHT = 200;

	private static final int LEFT = 80;

	private static final int RIGHT = 20;

	private static final int TOP = 40;

	/** Below each panel: its time labels and its legend, five entries a row. */
	private static final int GAP = 100;

	private static final int LEGEND_COLUMNS = 5;

	private static final String[] COLOURS = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
			"#e377c2", "#7f7f7f" };

	/**
	 * One panel.
	 *
	 * @param title what the panel shows, with its unit
	 * @param columns the series' columns drawn in it
	 * @param scale each value is multiplied by it (e.g. bytes to MiB)
	 */
	public record Panel(String title, List<String> columns, double scale) {

	}

	private SoakChart() {
	}

	/**
	 * The SVG document.
	 * @param title the chart's title
	 * @param series the samples
	 * @param panels the panels, top to bottom; columns the series lacks are left out
	 * @return the SVG text
	 */
	public static String render(String title, TimeSeries series, List<Panel> panels) {
		int height = TOP + panels.size() * (PANEL_HEIGHT + GAP);
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
				+ " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, height, WIDTH, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">%s</text>%n", LEFT,
				escape(title)));
		double[] time = series.column(series.columns().get(0));
		double maxTime = max(time);
		for (int p = 0; p < panels.size(); p++) {
			panel(svg, panels.get(p), series, time, maxTime, TOP + p * (PANEL_HEIGHT + GAP) + 20);
		}
		return svg.append("</svg>\n").toString();
	}

	private static void panel(StringBuilder svg, Panel panel, TimeSeries series, double[] time, double maxTime,
			int top) {
		int plotWidth = WIDTH - LEFT - RIGHT;
		List<String> columns = panel.columns().stream().filter(series.columns()::contains).toList();
		double maxValue = 0;
		for (String column : columns) {
			maxValue = Math.max(maxValue, max(series.column(column)) * panel.scale());
		}
		double yMax = (maxValue > 0) ? maxValue * 1.1 : 1;
		double xMax = (maxTime > 0) ? maxTime : 1;
		svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", LEFT, top - 6,
				escape(panel.title())));
		svg.append(String.format(Locale.ROOT,
				"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n", LEFT, top,
				plotWidth, PANEL_HEIGHT));
		for (int tick = 0; tick <= 4; tick++) {
			double value = yMax * tick / 4;
			double y = top + PANEL_HEIGHT - PANEL_HEIGHT * tick / 4.0;
			svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
					LEFT, y, LEFT + plotWidth, y));
			svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
					LEFT - 5, y + 4, label(value)));
			double t = xMax * tick / 4;
			svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
					LEFT + plotWidth * tick / 4.0, top + PANEL_HEIGHT + 15, label(t) + " s"));
		}
		for (int c = 0; c < columns.size(); c++) {
			String colour = COLOURS[c % COLOURS.length];
			double[] values = series.column(columns.get(c));
			StringBuilder points = new StringBuilder();
			for (int i = 0; i < values.length; i++) {
				if (!Double.isNaN(values[i]) && !Double.isNaN(time[i])) {
					double x = LEFT + plotWidth * time[i] / xMax;
					double y = top + PANEL_HEIGHT - PANEL_HEIGHT * values[i] * panel.scale() / yMax;
					points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
				}
			}
			svg.append(String.format(Locale.ROOT,
					"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n", colour,
					points.toString().trim()));
			svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n",
					LEFT + (c % LEGEND_COLUMNS) * 160, top + PANEL_HEIGHT + 35 + (c / LEGEND_COLUMNS) * 14, colour,
					escape(legend(columns.get(c)))));
		}
	}

	/** A column's legend: an index size {@code index_jobs_claim_idx_bytes} shows as {@code jobs_claim_idx}. */
	static String legend(String column) {
		return (column.startsWith("index_") && column.endsWith("_bytes"))
				? column.substring("index_".length(), column.length() - "_bytes".length()) : column;
	}

	private static double max(double[] values) {
		double max = 0;
		for (double value : values) {
			if (!Double.isNaN(value) && value > max) {
				max = value;
			}
		}
		return max;
	}

	static String label(double value) {
		if (value >= 10_000) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return (value >= 10 || value == 0) ? String.format(Locale.ROOT, "%.0f", value)
				: String.format(Locale.ROOT, "%.2f", value);
	}

	static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
